// Whether an object fits a per-object rule's `match` (kinds, names, namespaces, labels; all given must fit).
import type { KubeObject } from "../model/types.ts";
import type { ObjectRule } from "./schema.ts";

export function ruleMatches(match: ObjectRule["match"], object: KubeObject): boolean {
  const { kinds, names, namespaces, labels } = match;
  if (kinds && !kinds.includes(object.kind)) return false;
  if (names && !names.includes(object.metadata.name)) return false;
  if (namespaces && !namespaces.includes(object.metadata.namespace ?? "")) return false;
  return Object.entries(labels ?? {}).every(([key, value]) => object.metadata.labels?.[key] === value);
}
