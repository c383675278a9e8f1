// Whether an object read again differs from the read a revert planned on only
// in its status: what a controller writes all through a rollout (a Deployment's
// replicas, conditions and observedGeneration), and what a takeover and an
// apply never touch. Any other write since the read (a person's, or a
// controller's to spec or metadata) must be judged by a scan of its own.
import type { KubeObject } from "../../model/types.ts";

export function onlyStatusChanged(before: KubeObject, after: KubeObject): boolean {
  const rest = ({ status: _status, metadata, ...object }: KubeObject) => {
    const { resourceVersion: _version, managedFields, ...meta } = metadata;
    // The status entry's time moves with each status write; every other entry must be as read.
    const entries = (managedFields ?? []).filter((e) => e.subresource !== "status");
    return JSON.stringify({ ...object, metadata: { ...meta, managedFields: entries } });
  };
  return rest(before) === rest(after);
}
