// A field edit as a strategic-merge patch sees it. Lists kustomize merges by
// key (containers, env, ports, volumes of built-in kinds) keep keyed items;
// any other list is replaced whole, so the patch carries the whole intended
// list. A removed field becomes `null`, a removed keyed item `$patch: delete`.
import { valueAt } from "../../drift/diff-values.ts";
import { type FieldPath, keyOf } from "../../drift/field-path.ts";
import { isBuiltinGroup } from "../../drift/list-shapes.ts";
import type { FieldEdit } from "./drift-edits.ts";

// Lists whose items a strategic merge patch matches by key (patchMergeKey in the Kubernetes API).
const mergedLists = new Set([
  "containers",
  "initContainers",
  "ephemeralContainers",
  "env",
  "volumes",
  "volumeMounts",
  "volumeDevices",
  "ports",
  "imagePullSecrets",
  "hostAliases",
  "topologySpreadConstraints",
  "resourceClaims",
]);

export function patchEdit(params: { edit: FieldEdit; intended: unknown; group: string }): {
  path: FieldPath;
  value: unknown;
} {
  const { edit, intended, group } = params;
  const { path } = edit;
  for (let i = 0; i < path.length; i++) {
    const token = path[i]!;
    if (token.startsWith("f:")) continue;
    const list = path[i - 1]?.slice(2) ?? "";
    if (token.startsWith("k:") && isBuiltinGroup(group) && mergedLists.has(list)) continue;
    const listPath = path.slice(0, i);
    return { path: listPath, value: valueAt(intended, listPath) ?? null };
  }
  if (edit.value !== undefined) return { path, value: edit.value };
  const last = path.at(-1)!;
  return last.startsWith("k:") ? { path, value: { ...keyOf(last), $patch: "delete" } } : { path, value: null };
}
