// The part of an object that configuration is about: a deep copy without the
// fields the API server keeps for itself, and without status, which no apply changes.
import type { KubeObject } from "../model/types.ts";

const serverMetadata = [
  "managedFields",
  "resourceVersion",
  "uid",
  "creationTimestamp",
  "generation",
  "selfLink",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
] as const;

export function cleanObject(object: KubeObject): KubeObject {
  // apiVersion, kind and metadata lead, as people write manifests (renderers such as kustomize sort keys).
  const { apiVersion, kind, metadata, status: _status, ...rest } = structuredClone(object);
  for (const name of serverMetadata) delete metadata[name];
  return { apiVersion, kind, metadata, ...rest };
}
