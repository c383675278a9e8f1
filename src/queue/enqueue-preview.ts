// Adds the preview of one pull request on one cluster to that cluster's scan
// queue, so cluster-limited workers take it and the cluster's rate limit
// counts it. The job id is (pull request, cluster, head commit):
//
//   preview@acme/gitops#12@prod-eu@<head sha>        (BullMQ refuses ":" in custom ids)
//
// so a redelivered webhook of the same push adds nothing, while a refresh
// (`/undrift preview`) adds a suffix and runs again. BullMQ keeps a failed job
// under its id and adds nothing under it again, so a head whose preview failed
// is asked again with a suffix too (failedPreviewJobs). Previews are never folded
// into scans: they read other commits than the default branch.
import { randomUUID } from "node:crypto";
import type { Queue } from "bullmq";
import type { UndriftQueues } from "./create-queues.ts";
import { PREVIEW_JOB, type PreviewJob, parseJob, previewJobSchema } from "./jobs.ts";

/** The job id of a preview; `refresh` adds a suffix of its own, so the same head is previewed again. */
export function previewJobId(job: PreviewJob, options: { refresh?: boolean } = {}): string {
  return [
    "preview",
    `${job.repo.toLowerCase()}#${job.pullRequest}`,
    encodeURIComponent(job.cluster),
    job.head,
    ...(options.refresh ? [randomUUID().slice(0, 8)] : []),
  ].join("@");
}

/** Adds the job under `jobId` (see previewJobId); a job already there under that id is kept, and nothing is added. */
export async function enqueuePreview(params: {
  queues: UndriftQueues;
  job: PreviewJob;
  jobId: string;
}): Promise<string> {
  const { queues, jobId } = params;
  const job = parseJob(previewJobSchema, params.job, `preview of ${params.job.repo}#${params.job.pullRequest}`);
  const added = await previewQueue(queues, job.cluster).add(PREVIEW_JOB, job, { ...queues.scanJobOptions, jobId });
  if (added.id === undefined) throw new Error(`BullMQ gave no job id for ${jobId}`);
  return added.id;
}

/**
 * The jobs of a head's plan that will bring no result: failed (for good, or out of retries), or gone from the
 * queue (never added, or dropped by retention) without a result stored for their cluster (`answered`).
 */
export async function failedPreviewJobs(params: {
  queues: UndriftQueues;
  jobs: ReadonlyArray<{ cluster: string; jobId: string }>;
  answered: ReadonlySet<string>;
}): Promise<string[]> {
  const failed: string[] = [];
  for (const { cluster, jobId } of params.jobs) {
    const state = await previewQueue(params.queues, cluster).getJobState(jobId);
    if (state === "failed" || (state === "unknown" && !params.answered.has(cluster))) failed.push(jobId);
  }
  return failed;
}

/** Removes waiting preview jobs a newer push made stale; one that runs ends early by itself, finished ones stay as the record. */
export async function removePreviewJobs(params: {
  queues: UndriftQueues;
  jobs: ReadonlyArray<{ cluster: string; jobId: string }>;
}): Promise<number> {
  let removed = 0;
  for (const { cluster, jobId } of params.jobs) {
    const queue = previewQueue(params.queues, cluster);
    const state = await queue.getJobState(jobId);
    if (state === "waiting" || state === "delayed" || state === "prioritized") removed += await queue.remove(jobId);
  }
  return removed;
}

// The scan queue is typed for scan payloads; preview jobs travel in it under their own name and schema.
function previewQueue(queues: UndriftQueues, cluster: string): Queue<PreviewJob> {
  return queues.scan(cluster) as unknown as Queue<PreviewJob>;
}
