// Asks Flux to reconcile a Kustomization now, as `flux reconcile kustomization`
// does: the annotation reconcile.fluxcd.io/requestedAt set to the time of the
// request (a new value is a new request; kustomize-controller records the one it
// handled in status.lastHandledReconcileAt). A JSON merge patch touches that
// annotation alone, so no other field changes hands.
//
//   const asked = await requestReconcile({ session, ref, at: new Date() });
import type { ClusterSession } from "../live/cluster-session.ts";
import { objectPath } from "../live/object-path.ts";
import type { KubeObject, ReconcilerRef } from "../model/types.ts";

/** The annotation a Flux object takes a reconcile request in (fluxcd/pkg/apis/meta `ReconcileRequestAnnotation`). */
export const FLUX_REQUESTED_AT = "reconcile.fluxcd.io/requestedAt";

const FLUX_GROUPS: Record<string, string> = {
  Kustomization: "kustomize.toolkit.fluxcd.io",
  HelmRelease: "helm.toolkit.fluxcd.io",
};

/** Sets the request annotation on `ref`'s object; says which annotation and value it wrote. */
export async function requestReconcile(params: {
  session: ClusterSession;
  ref: ReconcilerRef;
  at: Date;
}): Promise<{ annotation: string; value: string }> {
  const { session, ref } = params;
  const group = FLUX_GROUPS[ref.kind];
  if (ref.from !== "flux" || !group) throw new Error(`${ref.from} ${ref.kind}: undrift cannot ask it to reconcile`);
  const index = await session.discover();
  const resource = index.listable().find((r) => r.group === group && r.kind === ref.kind);
  if (!resource) throw new Error(`the cluster serves no ${ref.kind} (${group}) any more`);
  const value = params.at.toISOString();
  await session.client.send<KubeObject>({
    method: "PATCH",
    path: objectPath(resource, { metadata: { name: ref.name, namespace: ref.namespace } }),
    query: { fieldManager: "undrift" },
    body: { metadata: { annotations: { [FLUX_REQUESTED_AT]: value } } },
    contentType: "application/merge-patch+json",
  });
  return { annotation: FLUX_REQUESTED_AT, value };
}
