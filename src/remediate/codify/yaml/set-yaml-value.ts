// Sets (or removes) one field of one document of a YAML file by splicing its
// text at the node ranges the `yaml` Document API gives, so every byte outside
// the edited span stays as it was: comments above, beside and below, key
// order, quoting, flow and block styles, blank lines, `---`/`...`, CRLF and
// anchors. Larger changes are done as a sequence of small ones, re-reading the
// text between them. The result must read back as exactly the intended
// document, or the edit is refused.
//
//   const text2 = setYamlValue({ file, text, document: 0, path: ["f:spec", "f:replicas"], value: 5 });
import { type Document, isMap, isScalar, isSeq } from "yaml";
import { valueAt } from "../../../drift/diff-values.ts";
import { setPath } from "../../../drift/edit-object.ts";
import type { FieldPath } from "../../../drift/field-path.ts";
import { describePath } from "./describe-path.ts";
import { insertEntry } from "./insert-entry.ts";
import { type Located, locatePath, type Step } from "./locate-path.ts";
import { documentValue, parseYamlFile, type YamlFile } from "./parse-yaml-file.ts";
import { removeEntry } from "./remove-entry.ts";
import { replaceList } from "./replace-list.ts";
import { replaceScalar, replaceWhole } from "./replace-node.ts";
import { sameValue } from "./same-value.ts";
import { setJsonValue } from "./set-json-value.ts";
import type { SetYamlValueParams } from "./set-value-params.ts";
import { sharedAlias } from "./shared-alias.ts";
import { YamlEditError } from "./yaml-edit-error.ts";
import { type Layout, layoutOf } from "./yaml-layout.ts";

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
// A copy with no shared parts: aliases resolve to one shared object, and an edit must reach only its own path.
const treeCopy = (v: Json): Json => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** The text with the field set; throws YamlEditError when the edit cannot be made exactly. */
export function setYamlValue(params: SetYamlValueParams): string {
  const { file, text, document, path, value } = params;
  const where = `${file}: document ${document}: ${describePath(path)}`;
  if (path.length === 0) throw new YamlEditError(`${where}: a whole document is not replaced`, { file });
  if (/\.json$/i.test(file)) return setJsonValue(params);
  const before = parseYamlFile({ file, text });
  const doc = before.documents[document];
  if (!doc) throw new YamlEditError(`${file}: has no document ${document}`, { file });
  const intended = treeCopy(documentValue(doc));
  setPath(intended, path, value);
  let problem = "";
  // Second try: every new scalar double-quoted, for the rare value a kept style cannot carry.
  for (const quoteAll of [false, true]) {
    let out: string;
    try {
      out = edit({ file, document, quoteAll }, text, path, value, 0);
    } catch (error) {
      if (!(error instanceof YamlEditError)) throw error;
      throw new YamlEditError(`${where}: ${error.message.replace(`${file}: `, "")}`, { file, cause: error });
    }
    problem = readBackProblem({ file, before, out, document, intended });
    if (problem === "") return out;
  }
  throw new YamlEditError(`${where}: ${problem}`, { file });
}

interface Context {
  file: string;
  document: number;
  quoteAll: boolean;
}

interface State {
  doc: Document.Parsed;
  json: Json;
  layout: Layout;
}

function edit(ctx: Context, text: string, path: FieldPath, value: Json, depth: number): string {
  if (depth > 500) throw new YamlEditError(`${ctx.file}: too many steps`, { file: ctx.file });
  const { file } = ctx;
  const state = read(ctx, text);
  const located = locatePath(state.doc, state.json, path);
  const again = (next: string) => edit(ctx, next, path, value, depth + 1);
  if (located.alias) {
    // Going through an alias would edit its anchor (and every other alias of it): give this place its own copy.
    const at = located.alias.at;
    if (at === 0) throw new YamlEditError(`${file}: the document is an alias`, { file });
    const copy = valueAt(state.json, path.slice(0, at));
    return again(replaceWhole({ file, text, step: located.steps[at - 1]!, value: copy, layout: state.layout }));
  }
  const found = located.missingAt === undefined;
  if (found && value !== undefined && sameValue(valueAt(state.json, path), value) && !differsInType(state, path, value))
    return text;
  if (!found && value === undefined) return text;
  const shared = sharedAlias(state.doc, located);
  if (shared) return again(replaceWhole({ file, text, ...shared, layout: state.layout }));

  if (found) {
    if (value === undefined) return removeWithCascade(file, text, located.steps);
    return replaceAt(ctx, text, state, located, path, value, depth);
  }
  const at = located.missingAt!;
  const wanted = treeCopy(state.json);
  setPath(wanted, path, value);
  const token = path[at]!;
  const reached = located.reached;
  const inserted = valueAt(wanted, path.slice(0, at + 1));
  const common = { file, text, value: inserted, layout: state.layout, quoteAll: ctx.quoteAll };
  if (isMap(reached) && token.startsWith("f:"))
    return insertEntry({ ...common, collection: reached, name: token.slice(2) });
  if (isSeq(reached) && !token.startsWith("f:")) return insertEntry({ ...common, collection: reached });
  if (at === 0) throw new YamlEditError(`${file}: the document is not a mapping`, { file });
  // A null or a scalar where a map or list must go: it is replaced as a whole.
  const whole = valueAt(wanted, path.slice(0, at));
  return replaceWhole({ file, text, step: located.steps[at - 1]!, value: whole, layout: state.layout });
}

function read(ctx: Context, text: string): State {
  const parsed = parseYamlFile({ file: ctx.file, text });
  const doc = parsed.documents[ctx.document];
  if (!doc) throw new YamlEditError(`${ctx.file}: has no document ${ctx.document}`, { file: ctx.file });
  return { doc, json: documentValue(doc), layout: layoutOf(doc, text, parsed.lineBreak) };
}

// `sameValue` treats {} and absent alike; a field set to {} where null stood still needs writing.
function differsInType(state: State, path: FieldPath, value: Json): boolean {
  const current = valueAt(state.json, path);
  return current !== undefined && typeof current !== typeof value;
}

function replaceAt(
  ctx: Context,
  text: string,
  state: State,
  located: Located,
  path: FieldPath,
  value: Json,
  depth: number,
): string {
  const step = located.steps.at(-1)!;
  const node = step.node;
  const current = valueAt(state.json, path);
  const { file } = ctx;
  const scalarValue = value === null || typeof value !== "object";
  if (isScalar(node) && scalarValue && node.range && node.range[0] < node.range[1]) {
    return replaceScalar({ text, step, value, layout: state.layout, quoteAll: ctx.quoteAll });
  }
  // Same shape on both sides: edit inside, key by key or item by item, so untouched entries keep their text.
  if (isMap(node) && isRecord(value) && isRecord(current) && Object.keys(value).length > 0) {
    let out = text;
    for (const [key, v] of Object.entries(value)) {
      if (!(key in current) || !sameValue(current[key], v)) out = edit(ctx, out, [...path, `f:${key}`], v, depth + 1);
    }
    for (const key of Object.keys(current)) {
      if (!(key in value)) out = edit(ctx, out, [...path, `f:${key}`], undefined, depth + 1);
    }
    return out;
  }
  if (isSeq(node) && Array.isArray(value) && Array.isArray(current) && value.length > 0) {
    const editor = {
      file,
      quoteAll: ctx.quoteAll,
      set: (next: string, at: FieldPath, v: Json) => edit(ctx, next, at, v, depth + 1),
      read: (next: string) => read(ctx, next),
    };
    return replaceList({ editor, text, path, current, value });
  }
  return replaceWhole({ file, text, step, value, layout: state.layout });
}

/** Removes the entry; when it is the last one of its map or list, removes that map's or list's own entry instead. */
function removeWithCascade(file: string, text: string, steps: Step[]): string {
  let k = steps.length - 1;
  while (k > 0 && steps[k]!.parent.items.length === 1) k--;
  const step = steps[k]!;
  if (step.parent.items.length === 1) throw new YamlEditError(`${file}: the document would be left empty`, { file });
  return removeEntry({ file, text, parent: step.parent, index: step.index });
}

function readBackProblem(params: {
  file: string;
  before: YamlFile;
  out: string;
  document: number;
  intended: Json;
}): string {
  let after: YamlFile;
  try {
    after = parseYamlFile({ file: params.file, text: params.out });
  } catch (error) {
    return `the edited text would not parse (${(error as Error).message})`;
  }
  if (after.documents.length !== params.before.documents.length)
    return "the edit would change the documents of the file";
  const doc = after.documents[params.document]!;
  if (!sameValue(documentValue(doc), params.intended)) return "the edited document would not read back as intended";
  return "";
}
