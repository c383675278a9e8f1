// The queue depth gauge's source: each queue's job counts by state, read from
// Redis when /metrics is scraped (so the gauge is never older than the scrape).

import type { JobType } from "bullmq";
import { metrics as processMetrics, type UndriftMetrics } from "../metrics/undrift-metrics.ts";
import type { UndriftQueues } from "./create-queues.ts";

/** The states a job can be in, as BullMQ's getJobCounts names them. */
const STATES: JobType[] = ["waiting", "active", "delayed", "prioritized", "waiting-children", "completed", "failed"];

/** Reports the schedule queue, the scan queues of `clusters` and, with `notify`, the notify queue; call the returned function before the queues close. */
export function watchQueueDepths(params: {
  queues: UndriftQueues;
  clusters: readonly string[];
  /** A process that sends notifications reports their queue too. */
  notify?: boolean;
  metrics?: UndriftMetrics;
}): () => void {
  const { queues } = params;
  return (params.metrics ?? processMetrics).watchQueues(async () =>
    // Redis down: the scrape answers at once with the last counts, not after the producer's retries.
    queues.connection.status !== "ready"
      ? []
      : Promise.all(
          [
            queues.schedule,
            ...params.clusters.map((cluster) => queues.scan(cluster)),
            ...(params.notify ? [queues.notify()] : []),
          ].map(async (queue) => ({
            queue: queue.name,
            counts: await queue.getJobCounts(...STATES),
          })),
        ),
  );
}
