// The part of an object that configuration is about: a deep copy without the
// fields the API server keeps for itself, and without status, which no apply changes.
import type { KubeObject } from "./types.ts";

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
  const copy = structuredClone(object);
  for (const name of serverMetadata) delete copy.metadata[name];
  delete copy.status;
  return copy;
}
