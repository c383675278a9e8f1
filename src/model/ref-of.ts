// The identity fields every record carries, from an object.

import type { ObjectRef } from "./object-label.ts";
import type { KubeObject } from "./types.ts";

export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
  };
}
