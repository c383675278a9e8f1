// The live side of the pairing: tracked objects Git does not declare are
// orphans, except those a controller owns. A ReplicaSet of a Deployment, a Pod
// of a ReplicaSet or a Job of a CronJob carries the tracking label whenever the
// label reaches the pod template (kustomize `labels` with `includeTemplates`,
// Helm's `app.kubernetes.io/instance`), yet it belongs to its owner, not to
// Git: as in Argo CD, an object with a controller ownerReference is never a
// top-level resource. So it is not reported, pruned, codified or counted among
// the tracked objects that maxPrunePercent weighs; its owner's deletion takes
// it, as the garbage collector decides.

import type { KubeObject } from "../model/types.ts";
import type { Pairing } from "./build-report.ts";

interface OwnerReference {
  kind?: string;
  name?: string;
  controller?: boolean;
}

/** The ownerReference of the object's controller, if it has one. */
export function controllerOf(object: KubeObject): OwnerReference | undefined {
  const references = object.metadata.ownerReferences;
  if (!Array.isArray(references)) return undefined;
  return (references as OwnerReference[]).find((r) => r?.controller === true);
}

/** One orphan pairing per tracked object whose key Git does not declare and no controller owns. */
export function orphanPairings(params: { tracked: Map<string, KubeObject>; declared: Set<string> }): Pairing[] {
  const pairings: Pairing[] = [];
  for (const [key, object] of params.tracked) {
    if (params.declared.has(key) || controllerOf(object)) continue;
    pairings.push({ live: object });
  }
  return pairings;
}
