// Notes on each ignoreDifferences rule where it is written, so that a jq
// expression that times out on a live object during a scan names the same
// `<file>:<line>: <field>` as one refused when the config loads.
import type { RuleOrigin } from "./rule-schemas.ts";
import type { RepoConfig } from "./schema.ts";

/** Sets `origin` on every rule with jq expressions; `lineOf` is the line of a path into the parsed file. */
export function locateIgnoreRules(
  config: RepoConfig,
  file: string,
  lineOf: (path: readonly PropertyKey[]) => number,
): void {
  config.targets.forEach((target, t) => {
    target.ignoreDifferences.forEach((rule, r) => {
      if (rule.jqPathExpressions.length === 0) return;
      const at = ["targets", t, "ignoreDifferences", r, "jqPathExpressions"];
      const origin: RuleOrigin = {
        file,
        field: `targets[${t}].ignoreDifferences[${r}]`,
        jqLines: rule.jqPathExpressions.map((_, e) => lineOf([...at, e])),
      };
      rule.origin = origin;
    });
  });
}
