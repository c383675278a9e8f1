// Adds the work of a tracking issue's dashboard to the target's cluster queue:
// the boxes a writer ticked (a `dashboard` job, run by the worker that scans
// the cluster), and the ignore rules those boxes ask for (an `ignore` job).
// Both are checked against their strict schemas here, so a producer bug is
// caught where it is made, not in the worker.
import type { Queue } from "bullmq";
import type { UndriftQueues } from "./create-queues.ts";
import {
  DASHBOARD_JOB,
  type DashboardJob,
  dashboardJobSchema,
  IGNORE_JOB,
  type IgnoreJob,
  ignoreJobSchema,
  parseJob,
} from "./jobs.ts";

/** Enqueues one dashboard job; returns its id. */
export async function enqueueDashboard(params: { queues: UndriftQueues; job: DashboardJob }): Promise<string> {
  const { queues } = params;
  const payload = parseJob(
    dashboardJobSchema,
    params.job,
    `dashboard of ${params.job.repo} target ${params.job.target}`,
  );
  const added = await queueOf<DashboardJob>(queues, payload.cluster).add(DASHBOARD_JOB, payload, queues.scanJobOptions);
  if (added.id === undefined) throw new Error(`BullMQ gave no job id for the dashboard job of ${payload.repo}`);
  return added.id;
}

/** Enqueues one ignore job (its handler opens or updates the target's ignore PR); returns its id. */
export async function enqueueIgnore(params: { queues: UndriftQueues; job: IgnoreJob }): Promise<string> {
  const { queues } = params;
  const payload = parseJob(ignoreJobSchema, params.job, `ignore of ${params.job.repo} target ${params.job.target}`);
  const added = await queueOf<IgnoreJob>(queues, payload.cluster).add(IGNORE_JOB, payload, queues.scanJobOptions);
  if (added.id === undefined) throw new Error(`BullMQ gave no job id for the ignore job of ${payload.repo}`);
  return added.id;
}

// The scan queue carries several job names; its type names the scan's payload only.
function queueOf<T>(queues: UndriftQueues, cluster: string): Queue<T> {
  return queues.scan(cluster) as unknown as Queue<T>;
}
