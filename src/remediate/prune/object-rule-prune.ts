// The prune setting a target's per-object rules give an object. Rules are
// read in order and the first one that matches and says something about prune
// decides, so a rule that only changes the mode does not hide a later one.
import type { ObjectRule, PruneSetting } from "../../config/schema.ts";
import type { KubeObject } from "../../drift/types.ts";

export function objectRulePrune(
  rules: ObjectRule[],
  object: KubeObject,
): { index: number; prune: PruneSetting } | undefined {
  const index = rules.findIndex((rule) => rule.prune !== undefined && matches(rule.match, object));
  return index === -1 ? undefined : { index, prune: rules[index]!.prune! };
}

function matches(match: ObjectRule["match"], object: KubeObject): boolean {
  const { kinds, names, namespaces, labels } = match;
  if (kinds && !kinds.includes(object.kind)) return false;
  if (names && !names.includes(object.metadata.name)) return false;
  if (namespaces && !namespaces.includes(object.metadata.namespace ?? "")) return false;
  return Object.entries(labels ?? {}).every(([key, value]) => object.metadata.labels?.[key] === value);
}
