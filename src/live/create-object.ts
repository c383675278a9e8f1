// Create one object, or its dry-run twin, which returns the object as the API
// server would store it (defaults filled in) and stores nothing.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import type { KubeClient } from "./kube-client.ts";
import { collectionPath } from "./list-objects.ts";

export async function createObject(params: {
  client: KubeClient;
  resource: ApiResource;
  object: KubeObject;
  fieldManager: string;
  dryRun: boolean;
}): Promise<KubeObject> {
  return params.client.send<KubeObject>({
    method: "POST",
    path: collectionPath(params.resource, params.object.metadata.namespace),
    query: { fieldManager: params.fieldManager, dryRun: params.dryRun ? "All" : undefined },
    body: params.object,
  });
}
