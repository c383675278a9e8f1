// Rewrites an object's `metadata.managedFields`, or its dry-run twin. A JSON merge
// patch replaces the list whole; the resourceVersion in it is a precondition, so
// the server refuses (409 Conflict) when the object changed since it was read and
// the new ownership would rest on a stale view. Changing only managedFields leaves
// every other field, and so every other manager's claim, as it was.
import type { KubeObject, ManagedFieldsEntry } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import type { KubeClient } from "./kube-client.ts";
import { objectPath } from "./object-path.ts";

export async function patchManagedFields(params: {
  client: KubeClient;
  resource: ApiResource;
  /** The object as read, with the resourceVersion the new entries were computed from. */
  object: KubeObject;
  managedFields: ManagedFieldsEntry[];
  fieldManager: string;
  dryRun: boolean;
}): Promise<KubeObject> {
  const { object } = params;
  return params.client.send<KubeObject>({
    method: "PATCH",
    path: objectPath(params.resource, object),
    query: { fieldManager: params.fieldManager, dryRun: params.dryRun ? "All" : undefined },
    body: { metadata: { resourceVersion: object.metadata.resourceVersion, managedFields: params.managedFields } },
    contentType: "application/merge-patch+json",
  });
}
