// Deletes the orphans a prune plan allows, one at a time in the plan's order
// (dependents before what holds them), or asks the server to check each delete
// without doing it (dryRun=All): both yield the same records. Each orphan is read
// again first: one whose uid or resourceVersion moved since the scan (a label
// removed, an opt-out added, re-created) is not the object that was judged safe
// to delete, and is left for the next revert to judge.
// An object is reported deleted only once it is gone: one the server marked
// for deletion but still holds (a finalizer nothing has removed yet,
// foregroundDeletion while its dependents go, a Namespace being emptied) is
// `deleting`, naming what holds it, and one already marked when it is read is
// not deleted again (a DELETE of it changes nothing): it is `deleting` too
// (the plan sets aside those the scan saw marked; this catches one marked since).

import { deleteObject, type PropagationPolicy } from "../../live/delete-object.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { getObject } from "../../live/get-object.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import { pendingReason } from "../../plan/prune/pending-reason.ts";
import { asApiError } from "../revert/revert-error.ts";

export async function pruneOrphans(params: {
  client: KubeClient;
  index: ResourceIndex;
  deletions: KubeObject[];
  propagationPolicy: PropagationPolicy;
  dryRun: boolean;
}): Promise<ObjectRecord[]> {
  const { client, dryRun } = params;
  const records: ObjectRecord[] = [];
  for (const object of params.deletions) {
    const ref = refOf(object);
    const resource = params.index.find(object.apiVersion, object.kind);
    if (!resource) {
      records.push({ ...ref, action: "failed", reason: "its kind is no longer served by the cluster" });
      continue;
    }
    try {
      const now = await getObject({ client, resource, object });
      if (!now) {
        records.push({ ...ref, action: "deleted", reason: "already gone" });
        continue;
      }
      const { uid, resourceVersion } = object.metadata;
      // Its finalizers' controllers may write it while it waits, so only the uid must still match.
      if (now.metadata.uid === uid && now.metadata.deletionTimestamp) {
        records.push({ ...ref, action: "deleting", reason: pendingReason(now, { already: true }) });
        continue;
      }
      if (now.metadata.uid !== uid || now.metadata.resourceVersion !== resourceVersion) {
        const reason = "changed since the scan, so not deleted; run revert again to judge it anew";
        records.push({ ...ref, action: "failed", reason });
        continue;
      }
      const outcome = await deleteObject({
        client,
        resource,
        object,
        propagationPolicy: params.propagationPolicy,
        dryRun,
      });
      if (outcome.outcome === "pending") {
        records.push({ ...ref, action: "deleting", reason: pendingReason(outcome.live, { already: false }) });
        continue;
      }
      records.push({ ...ref, action: "deleted", ...(outcome.outcome === "gone" ? { reason: "already gone" } : {}) });
    } catch (caught) {
      const error = asApiError(object, "delete failed", caught);
      records.push({ ...ref, action: "failed", reason: `delete refused: ${error.refusal}` });
    }
  }
  return records;
}
