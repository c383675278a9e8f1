// Server-side apply of one object, or its dry-run twin: the same request with
// dryRun=All, which returns the object as applying would leave it and changes nothing.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import type { KubeClient } from "./kube-client.ts";
import { objectPath } from "./object-path.ts";

export async function applyObject(params: {
  client: KubeClient;
  resource: ApiResource;
  object: KubeObject;
  fieldManager: string;
  force: boolean;
  dryRun: boolean;
}): Promise<KubeObject> {
  return params.client.send<KubeObject>({
    method: "PATCH",
    path: objectPath(params.resource, params.object),
    query: { fieldManager: params.fieldManager, force: params.force, dryRun: params.dryRun ? "All" : undefined },
    body: params.object,
    contentType: "application/apply-patch+yaml",
  });
}
