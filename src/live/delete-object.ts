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

/**
 * What a DELETE did: deleted (the object is gone), gone (it no longer existed), or pending: the server marked it
 * (deletionTimestamp) and it stays until its finalizers are removed (a controller's, foregroundDeletion while its
 * dependents go, a Namespace being emptied) or its grace period ends; `live` is the object as the server left it.
 * The API server answers an immediate delete with a Status (or the object as it was), and a pending one with the
 * object carrying its deletionTimestamp; a dry run answers as the real delete would.
 */
export type DeleteOutcome = { outcome: "deleted" | "gone" } | { outcome: "pending"; live: KubeObject };

/** Deletes an object, or asks the server to check the delete (dryRun). */
export async function deleteObject(params: {
  client: KubeClient;
  resource: ApiResource;
  object: Pick<KubeObject, "metadata">;
  propagationPolicy: PropagationPolicy;
  dryRun: boolean;
}): Promise<DeleteOutcome> {
  try {
    const answer = await params.client.send<Partial<KubeObject> | undefined>({
      method: "DELETE",
      path: objectPath(params.resource, params.object),
      query: { propagationPolicy: params.propagationPolicy, dryRun: params.dryRun ? "All" : undefined },
    });
    if (answer?.kind !== "Status" && answer?.metadata?.deletionTimestamp)
      return { outcome: "pending", live: answer as KubeObject };
    return { outcome: "deleted" };
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) return { outcome: "gone" };
    throw error;
  }
}
