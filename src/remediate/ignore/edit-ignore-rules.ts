// The ignore plan written into `.github/undrift.yml`: each extended rule gets
// its longer list, each new rule is appended to the target's
// `ignoreDifferences` (created when the target has none). Every edit splices
// the text (setYamlValue, as codify edits manifests), so comments, key order,
// quoting, flow or block lists and blank lines stay as the person wrote them.
// The target's own `ignoreDifferences` is the narrowest place: a rule there
// reaches no other target.
import { isMap, isSeq, parseDocument } from "yaml";
import { type PlanRule, writtenRule } from "../../plan/ignore/plan-ignore-rule.ts";
import { setYamlValue } from "../codify/yaml/set-yaml-value.ts";
import { YamlEditError } from "../codify/yaml/yaml-edit-error.ts";

const LISTS = ["jsonPointers", "jqPathExpressions", "managedFieldsManagers"] as const;

/** The config text with the plan's rules written; throws YamlEditError naming the file when it cannot be. */
export function editIgnoreRules(params: {
  file: string;
  text: string;
  target: string;
  /** The target's rules as the file holds them. */
  before: readonly PlanRule[];
  /** The plan's rules (plan.rules). */
  after: readonly PlanRule[];
  /** Indices of `after` to write (plan.changed). */
  changed: readonly number[];
}): string {
  const { file, before, after } = params;
  const index = targetIndex(params);
  const at = ["f:targets", `i:${index}`, "f:ignoreDifferences"];
  let text = params.text;
  const set = (path: string[], value: unknown) => {
    text = setYamlValue({ file, text, document: 0, path, value });
  };
  // An empty or absent list is written whole; otherwise one entry at a time, in order.
  if (before.length === 0 && params.changed.length > 0) {
    set(
      at,
      params.changed.map((i) => writtenRule(after[i]!)),
    );
    return text;
  }
  for (const i of params.changed) {
    const rule = after[i]!;
    if (i >= before.length) {
      set([...at, `i:${i}`], writtenRule(rule));
      continue;
    }
    for (const list of LISTS) {
      if (rule[list].length !== before[i]![list].length) set([...at, `i:${i}`, `f:${list}`], [...rule[list]]);
    }
  }
  return text;
}

/** The target's position in the file's `targets` list. */
function targetIndex(params: { file: string; text: string; target: string }): number {
  const { file, text, target } = params;
  const doc = parseDocument(text);
  const targets = isMap(doc.contents) ? doc.contents.get("targets", true) : undefined;
  const index = isSeq(targets)
    ? targets.items.findIndex((item) => isMap(item) && String(item.get("name")) === target)
    : -1;
  if (index < 0) throw new YamlEditError(`${file}: target "${target}" is not written in this file`, { file });
  return index;
}
