// The manifest for an object someone created by hand: the live object without
// what the API server keeps for itself (status, managedFields, uid,
// resourceVersion, timestamps), without the values it defaulted (only fields
// some manager set are kept, less the well-known defaults a `kubectl create`
// is credited with), without kubectl's and undrift's own bookkeeping.
import { cleanObject } from "../../drift/clean-object.ts";
import { removePointer } from "../../drift/edit-object.ts";
import { isBuiltinGroup, ListShapes } from "../../drift/list-shapes.ts";
import { Ownership } from "../../drift/managed-fields.ts";
import type { KubeObject } from "../../model/types.ts";
import { ownedOnly } from "./owned-only.ts";
import { type AssumedDefault, stripDefaults } from "./strip-defaults.ts";

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";

export function orphanManifest(params: {
  live: KubeObject;
  group: string;
  /** undrift's default tracking label, which rendering adds by itself. */
  trackingLabel?: { key: string; value: string } | undefined;
  /** The namespace the target gives objects that name none: left out of the manifest. */
  defaultNamespace: string;
  /** JSON pointers of noise (rollout stamps, revision counters) that is no configuration. */
  noisePointers: string[];
}): { manifest: KubeObject; defaults: AssumedDefault[] } {
  const { live, trackingLabel } = params;
  const clean = cleanObject(live);
  delete clean.metadata.annotations?.[lastApplied];
  for (const pointer of params.noisePointers) removePointer(clean, pointer);
  const ownership = Ownership.of(live);
  const shapes = new ListShapes({ ownership: [ownership], builtin: isBuiltinGroup(params.group) });
  const noManagers = (live.metadata.managedFields ?? []).length === 0;
  const owned = noManagers ? clean : (ownedOnly({ value: clean, path: [], ownership, shapes }) ?? {});
  const stripped = stripDefaults({ object: owned, kind: live.kind, group: params.group });
  const kept = stripped.object as Record<string, unknown>;
  const { apiVersion: _a, kind: _k, metadata: ownedMetadata, ...rest } = kept;
  const {
    name: _n,
    namespace: _ns,
    generateName: _g,
    ...metadata
  } = (ownedMetadata ?? {}) as Partial<KubeObject["metadata"]>;
  const labels = metadata.labels ? { ...metadata.labels } : undefined;
  if (labels && trackingLabel && labels[trackingLabel.key] === trackingLabel.value) delete labels[trackingLabel.key];
  if (labels && Object.keys(labels).length > 0) metadata.labels = labels;
  else delete metadata.labels;
  if (metadata.annotations && Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  const namespace = live.metadata.namespace;
  const manifest: KubeObject = {
    apiVersion: live.apiVersion,
    kind: live.kind,
    metadata: {
      name: live.metadata.name,
      ...(namespace && namespace !== params.defaultNamespace ? { namespace } : {}),
      ...metadata,
    },
    ...rest,
  };
  return { manifest, defaults: stripped.removed };
}
