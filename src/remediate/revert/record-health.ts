// The health of applied objects, read back from the cluster (one GET each per
// round), waited for or judged once, written onto their records.
import type { ResourceIndex } from "../../live/discovery.ts";
import { ClusterUnreachableError } from "../../live/errors.ts";
import { getObject } from "../../live/get-object.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import type { OnProgress } from "../../model/progress.ts";
import type { KubeObject } from "../../model/types.ts";
import type { PlannedObject } from "../../plan/revert/plan-revert.ts";
import { waitForHealth } from "../health/wait-for-health.ts";

/** One planned object after its apply: the record, and the object as the apply returned it. */
export interface AppliedEntry {
  planned: PlannedObject;
  record: ObjectRecord;
  applied?: KubeObject;
}

export async function recordHealth(params: {
  client: KubeClient;
  index: ResourceIndex;
  entries: AppliedEntry[];
  wait: boolean;
  deadline: number;
  /** Ends the wait early (Ctrl-C): what is not ready yet says it was interrupted. */
  signal?: AbortSignal;
  /** Told, after each round of reads, which objects the wait is still on. */
  onProgress?: OnProgress;
}): Promise<void> {
  const { client, index } = params;
  // Objects the cluster did not answer for on their last read: their health is unknown, not "not found".
  const unread = new Map<number, string>();
  const health = await waitForHealth({
    watches: params.entries.map((entry, i) => ({
      item: entry,
      read: async () => {
        const resource = index.find(entry.record.apiVersion, entry.record.kind)!;
        try {
          const object = await getObject({ client, resource, object: entry.planned.desired.object });
          unread.delete(i);
          return object;
        } catch (error) {
          if (!(error instanceof ClusterUnreachableError)) throw error;
          unread.set(i, error.message);
          return undefined;
        }
      },
    })),
    wait: params.wait,
    deadline: params.deadline,
    ...(params.signal ? { signal: params.signal } : {}),
    onRound: (pending) =>
      params.onProgress?.({
        step: "wait",
        total: params.entries.length,
        waiting: pending.map(({ item, readiness }) => ({ ref: item.record, message: readiness.message })),
      }),
  });
  params.entries.forEach((entry, i) => {
    const why = unread.get(i);
    entry.record.health = why ? { ...health[i]!, message: `could not be read back: ${why}` } : health[i]!;
  });
}
