// The identity fields every record carries, from an object.

import type { ObjectRecord } from "./change-set.ts";
import type { KubeObject } from "./types.ts";

export type ObjectRef = Pick<ObjectRecord, "apiVersion" | "kind" | "namespace" | "name">;

export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
  };
}
