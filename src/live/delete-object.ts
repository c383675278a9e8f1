// DELETE of one object, or its dry-run twin: the same request with dryRun=All,
// which runs every check (admission, finalizers) and deletes nothing.
//
// The options travel as query parameters, which the API server accepts for
// DELETE, and not as a DeleteOptions body: KubeClient sends a DELETE body with
// neither Content-Length nor chunked framing (Node does not chunk DELETE), so the
// server never reads it, and a dry run sent that way is a real delete. That also
// keeps `preconditions` (a body-only field) out of reach; callers compare the
// object they judged with a fresh read instead, as Flux's ssa Delete does.
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";
import { objectPath } from "./object-path.ts";

/** How the garbage collector treats the object's dependents, as `kubectl delete --cascade` names them. */
export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

/** Deletes an object; "gone" when it no longer existed. */
export async function deleteObject(params: {
  client: KubeClient;
  resource: ApiResource;
  object: Pick<KubeObject, "metadata">;
  propagationPolicy: PropagationPolicy;
  dryRun: boolean;
}): Promise<"deleted" | "gone"> {
  try {
    await params.client.send({
      method: "DELETE",
      path: objectPath(params.resource, params.object),
      query: { propagationPolicy: params.propagationPolicy, dryRun: params.dryRun ? "All" : undefined },
    });
    return "deleted";
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return "gone";
    throw error;
  }
}
