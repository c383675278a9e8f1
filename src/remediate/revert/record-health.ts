// The health of applied objects, read back from the cluster (one GET each per
// round), waited for or judged once, written onto their records.
import type { ResourceIndex } from "../../live/discovery.ts";
import { getObject } from "../../live/get-object.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
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
}): Promise<void> {
  const { client, index } = params;
  const health = await waitForHealth({
    watches: params.entries.map((entry) => ({
      item: entry,
      read: () => {
        const resource = index.find(entry.record.apiVersion, entry.record.kind)!;
        return getObject({ client, resource, object: entry.planned.desired.object });
      },
    })),
    wait: params.wait,
    deadline: params.deadline,
  });
  params.entries.forEach((entry, i) => {
    entry.record.health = health[i]!;
  });
}
