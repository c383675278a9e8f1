// The name of a discovered target: the reconciler object's kind, namespace and
// name as one DNS label (`ks-flux-system-apps` for Flux's Kustomization
// flux-system/apps, `app-argocd-guestbook` for an Argo CD Application), led by
// the cluster's name when the config discovers on several (`prod-ks-...`, as
// every cluster has its flux-system/apps), so it is stable for as long as the
// object exists. Where that label would be too long, or two objects would share
// it (`a-b/c` and `a/b-c`), a short digest of the full identity follows.
import { createHash } from "node:crypto";

/** The kinds whose objects become targets, with the prefix of their targets' names (as `flux get ks` says). */
export const KIND_PREFIX = { Kustomization: "ks", HelmRelease: "hr", Application: "app" } as const;

export interface ObjectIdentity {
  cluster: string;
  /** The config discovers on several clusters: the name starts with this one's. */
  clusterInName?: boolean;
  kind: keyof typeof KIND_PREFIX;
  namespace: string;
  name: string;
}

const MAX = 63;

/** The plain name, before collisions are looked at. */
export function plainName(object: ObjectIdentity): string {
  const cluster = object.clusterInName ? `${object.cluster}-` : "";
  const label = `${cluster}${KIND_PREFIX[object.kind]}-${object.namespace}-${object.name}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")
    .replace(/-+$/, "");
  return label.length <= MAX ? label : withDigest(label, object);
}

/** The plain name with a digest of the full identity, for a name another object would share or a long one. */
export function withDigest(label: string, object: ObjectIdentity): string {
  const digest = createHash("sha256")
    .update(`${object.cluster}/${object.kind}/${object.namespace}/${object.name}`)
    .digest("hex")
    .slice(0, 6);
  return `${label.slice(0, MAX - digest.length - 1).replace(/-+$/, "")}-${digest}`;
}

/** A name for each object, in order: plain unless two objects would share it, then each of those with a digest. */
export function discoveredNames(objects: readonly ObjectIdentity[]): string[] {
  const plain = objects.map(plainName);
  const count = new Map<string, number>();
  for (const name of plain) count.set(name, (count.get(name) ?? 0) + 1);
  return plain.map((name, i) => ((count.get(name) ?? 0) > 1 ? withDigest(name, objects[i]!) : name));
}
