// Dependency order of an apply: CustomResourceDefinitions first (their custom
// resources cannot be applied before the kind is served), then Namespaces
// (namespaced objects need them), then the other cluster-scoped kinds (such as
// ClusterRoles that namespaced bindings name), then everything namespaced.
import { groupKindKey, groupOf } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";

export type ApplyStage = 0 | 1 | 2 | 3;

/** The stage an object is applied in; finalized objects carry a namespace exactly when their kind is namespaced. */
export function applyStage(object: KubeObject): ApplyStage {
  if (isCustomResourceDefinition(object)) return 0;
  if (isNamespace(object)) return 1;
  return object.metadata.namespace ? 3 : 2;
}

export function isCustomResourceDefinition(object: Pick<KubeObject, "apiVersion" | "kind">): boolean {
  return groupOf(object.apiVersion) === "apiextensions.k8s.io" && object.kind === "CustomResourceDefinition";
}

export function isNamespace(object: Pick<KubeObject, "apiVersion" | "kind">): boolean {
  return object.apiVersion === "v1" && object.kind === "Namespace";
}

/** The `group/Kind` a CustomResourceDefinition defines, or undefined when its spec does not say. */
export function definedKind(crd: KubeObject): string | undefined {
  const spec = crd.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
  return typeof spec?.group === "string" && typeof spec.names?.kind === "string"
    ? groupKindKey(spec.group, spec.names.kind)
    : undefined;
}
