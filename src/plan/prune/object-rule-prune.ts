// The prune setting a target's per-object rules give an object. Rules are
// read in order and the first one that matches and says something about prune
// decides, so a rule that only changes the mode does not hide a later one.
import { ruleMatches } from "../../config/rule-matches.ts";
import type { ObjectRule, PruneSetting } from "../../config/schema.ts";
import type { KubeObject } from "../../model/types.ts";

export function objectRulePrune(
  rules: ObjectRule[],
  object: KubeObject,
): { index: number; prune: PruneSetting } | undefined {
  const index = rules.findIndex((rule) => rule.prune !== undefined && ruleMatches(rule.match, object));
  return index === -1 ? undefined : { index, prune: rules[index]!.prune! };
}
