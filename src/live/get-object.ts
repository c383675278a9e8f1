// GET one object; undefined when it does not exist.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";
import { objectPath } from "./object-path.ts";

export async function getObject(params: {
  client: KubeClient;
  resource: ApiResource;
  object: Pick<KubeObject, "metadata">;
}): Promise<KubeObject | undefined> {
  try {
    return await params.client.send<KubeObject>({ method: "GET", path: objectPath(params.resource, params.object) });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return undefined;
    throw error;
  }
}
