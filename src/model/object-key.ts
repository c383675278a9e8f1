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

/**
 * A kind as one string, `group/Kind`, the core group empty: `apps/Deployment`, `/ConfigMap`. The kinds a target
 * declares, a CRD defines, a health rule covers and a list names are keyed this way; versions do not split a kind.
 */
export function groupKindKey(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/** The `group/Kind` of an object (its apiVersion's group and its kind). */
export function kindKeyOf(obj: Pick<KubeObject, "apiVersion" | "kind">): string {
  return groupKindKey(groupOf(obj.apiVersion), obj.kind);
}

/** A served resource's kind with its version, `group/version/Kind`, as discovery finds the resource that serves one. */
export function versionKindKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

/**
 * A desired object's key with the apiVersion it was declared in, `apps/v1|apps/Deployment/shop/web`: the live
 * object a scan found is looked up by it, so two versions of one kind in a render stay apart until pairing.
 */
export function declaredKeyString(obj: KubeObject): string {
  return `${obj.apiVersion}|${keyString(objectKey(obj))}`;
}

/** `namespace/name`, the namespace "" when cluster-scoped: an object's key among the objects of one kind. */
export function nameKeyOf(obj: Pick<KubeObject, "metadata">): string {
  return `${obj.metadata.namespace ?? ""}/${obj.metadata.name}`;
}
