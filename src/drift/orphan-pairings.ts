// The live side of the pairing: tracked objects Git does not declare are
// orphans, except those a controller owns. A ReplicaSet of a Deployment, a Pod
// of a ReplicaSet or a Job of a CronJob carries the tracking label whenever the
// label reaches the pod template (kustomize `labels` with `includeTemplates`,
// Helm's `app.kubernetes.io/instance`), yet it belongs to its owner, not to
// Git: as in Argo CD, an object with a controller ownerReference is never a
// top-level resource. So it is not reported, pruned, codified or counted among
// the tracked objects that maxPrunePercent weighs; its owner's deletion takes
// it, as the garbage collector decides.
// The endpoints controller makes one `v1 Endpoints` per Service, under the
// Service's name and with the Service's labels, and gives it no ownerReference:
// it is the Service's too, while that Service is tracked or declared. (Its
// EndpointSlices have a controller ownerReference.) An Endpoints with no such
// Service is somebody's own, and may be an orphan.
// The StatefulSet controller makes a PersistentVolumeClaim per volumeClaimTemplate
// and replica, named `<template>-<set>-<ordinal>`, with the template's labels (a
// chart's `app.kubernetes.io/instance` among them) and, under the default
// retention policy, no ownerReference: it holds the set's data. As Argo CD's
// gitops-engine infers, it is the set's while that set is tracked (once the set
// is gone, a claim left behind is a leftover like any other).

import { ignoresExtraneous, leftAloneBy } from "../model/reconciler-annotations.ts";
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

/** Whether the object is the Endpoints the endpoints controller keeps for a tracked or declared Service. */
function serviceEndpoints(object: KubeObject, params: { tracked: Map<string, KubeObject>; declared: Set<string> }) {
  if (object.apiVersion !== "v1" || object.kind !== "Endpoints") return false;
  const service = `/Service/${object.metadata.namespace ?? ""}/${object.metadata.name}`;
  return params.declared.has(service) || params.tracked.has(service);
}

/** `<namespace>/<template>-<set>` for every volumeClaimTemplate of every tracked StatefulSet. */
function statefulSetClaimPrefixes(tracked: Map<string, KubeObject>): Set<string> {
  const prefixes = new Set<string>();
  for (const object of tracked.values()) {
    if (object.apiVersion !== "apps/v1" || object.kind !== "StatefulSet") continue;
    const templates = (object.spec as { volumeClaimTemplates?: Array<{ metadata?: { name?: string } }> } | undefined)
      ?.volumeClaimTemplates;
    for (const template of Array.isArray(templates) ? templates : []) {
      const name = template?.metadata?.name;
      if (name) prefixes.add(`${object.metadata.namespace ?? ""}/${name}-${object.metadata.name}`);
    }
  }
  return prefixes;
}

/** Whether the object is a claim a tracked StatefulSet made from one of its volumeClaimTemplates. */
function statefulSetClaim(object: KubeObject, prefixes: Set<string>): boolean {
  if (object.apiVersion !== "v1" || object.kind !== "PersistentVolumeClaim") return false;
  const base = /^(.+)-\d+$/.exec(object.metadata.name)?.[1];
  return base !== undefined && prefixes.has(`${object.metadata.namespace ?? ""}/${base}`);
}

/** One orphan pairing per tracked object whose key Git does not declare and no controller owns. */
export function orphanPairings(params: { tracked: Map<string, KubeObject>; declared: Set<string> }): Pairing[] {
  const claimPrefixes = statefulSetClaimPrefixes(params.tracked);
  const pairings: Pairing[] = [];
  for (const [key, object] of params.tracked) {
    if (params.declared.has(key) || controllerOf(object) || serviceEndpoints(object, params)) continue;
    if (statefulSetClaim(object, claimPrefixes)) continue;
    // An object its reconciler leaves alone, or Argo CD's IgnoreExtraneous, is nobody's drift (reconciler-annotations.ts).
    if (ignoresExtraneous(object) || leftAloneBy(undefined, object)) continue;
    pairings.push({ live: object });
  }
  return pairings;
}
