// REST path of one object.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { collectionPath } from "./list-objects.ts";

export function objectPath(resource: ApiResource, object: Pick<KubeObject, "metadata">): string {
  const name = encodeURIComponent(object.metadata.name);
  return `${collectionPath(resource, object.metadata.namespace)}/${name}`;
}
