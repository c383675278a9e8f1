// Paged LIST of one kind: 500 objects a page, following continue tokens, and
// starting over when the server says the token expired (410 Expired), as
// client-go's pager does.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";

export const pageSize = 500;

/**
 * Only each object's metadata (kind PartialObjectMetadataList), as the garbage collector and
 * `kubectl get -o name` ask: enough to tell an orphan from a declared or owned object.
 */
export const metadataAccept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/** Collection path of a resource, in one namespace or across all. */
export function collectionPath(r: ApiResource, namespace?: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return namespace && r.namespaced ? `${base}/namespaces/${namespace}/${r.resource}` : `${base}/${r.resource}`;
}

export interface ListParams {
  client: KubeClient;
  resource: ApiResource;
  namespace?: string;
  labelSelector?: string;
  /** Each item's metadata alone, without its managedFields (never compared for such an object). */
  metadataOnly?: boolean;
}

export async function listObjects(params: ListParams): Promise<KubeObject[]> {
  return (await listObjectsAt(params)).items;
}

/** As listObjects, with the list's resourceVersion: where a WATCH of the same objects starts. */
export async function listObjectsAt(params: ListParams): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const { client, resource } = params;
  const path = collectionPath(resource, params.namespace);
  const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  for (let attempt = 0; ; attempt++) {
    const items: KubeObject[] = [];
    let token: string | undefined;
    let resourceVersion = "";
    try {
      do {
        const page = await client.send<{
          items: KubeObject[] | null;
          metadata?: { continue?: string; resourceVersion?: string };
        }>({
          method: "GET",
          path,
          query: { limit: pageSize, continue: token, labelSelector: params.labelSelector },
          ...(params.metadataOnly ? { accept: metadataAccept } : {}),
        });
        // Items in a list carry no apiVersion/kind of their own; give them back, first, as a GET would.
        const typeMeta = { apiVersion, kind: resource.kind };
        // An empty PartialObjectMetadataList of a custom resource says `items: null`.
        for (const item of page.items ?? []) {
          if (params.metadataOnly) delete item.metadata.managedFields;
          items.push(Object.assign({ ...typeMeta }, item, typeMeta));
        }
        token = page.metadata?.continue || undefined;
        // Every page of one LIST is read at the first page's resourceVersion.
        resourceVersion ||= page.metadata?.resourceVersion ?? "";
      } while (token);
      return { items, resourceVersion };
    } catch (error) {
      const expired = error instanceof KubeApiError && error.status === 410;
      if (!expired || attempt >= 2) throw error;
    }
  }
}
