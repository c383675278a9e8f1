// The identity of an object, as gitops-engine pairs desired and live: group,
// kind, namespace, name, and no version (apps/v1 and apps/v1beta2 are one object).
import type { ObjectRef } from "./object-label.ts";
import type { KubeObject, ObjectKey } from "./types.ts";

/** The API group of an apiVersion: "apps" for "apps/v1", "" for the core "v1". */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash === -1 ? "" : apiVersion.slice(0, slash);
}

/** The key of an object; `namespace` is "" for cluster-scoped objects (and for namespaced ones that name none yet). */
export function objectKey(obj: KubeObject): ObjectKey {
  return {
    group: groupOf(obj.apiVersion),
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? "",
    name: obj.metadata.name,
  };
}

/** The key of what a record or report names (its apiVersion, kind, namespace and name). */
export function refKey(ref: ObjectRef): ObjectKey {
  return { group: groupOf(ref.apiVersion), kind: ref.kind, namespace: ref.namespace ?? "", name: ref.name };
}

/**
 * A key as one string for maps and sets: `group/kind/namespace/name`, every part always present, so the core
 * group and cluster scope leave empty parts: `apps/Deployment/shop/web`, `/ConfigMap/shop/app`, `rbac.authorization.k8s.io/ClusterRole//admin`.
 * Unambiguous because no part can contain a `/`.
 */
export function keyString(key: ObjectKey): string {
  return `${key.group}/${key.kind}/${key.namespace}/${key.name}`;
}
