// Adds a scan of one target to its cluster's queue, so that events do not pile
// up scans:
//   - the job id is (repository, target, revision): a redelivered webhook of a
//     commit finds the job already there (queued, running, or kept as finished)
//     and adds nothing;
//   - the target's key is a BullMQ deduplication id with `keepLastIfActive`:
//     while a scan of the target waits, another request is folded into it (the
//     scan reads the branch head when it starts); while one runs, the latest
//     request is kept aside and becomes exactly one more scan when it ends.
// So a target has at most one scan running and one waiting, and ten pushes
// during a scan cost one more scan, not ten. Every scan of a target passes
// here, scheduler ticks included, so no two scans of a target run at once.

import { targetKey } from "../model/target-key.ts";
import type { UndriftQueues } from "./create-queues.ts";
import { parseJob, SCAN_JOB, type ScanJob, scanJobSchema } from "./jobs.ts";

/**
 * Enqueues a scan and returns the id of the job that will carry it out: a new
 * job, the queued or finished job of the same revision, or the scan of the
 * target that is already waiting or running.
 * The caller has checked the cluster with `clusterFor`; the worker checks again.
 */
export async function enqueueScan({ queues, job }: { queues: UndriftQueues; job: ScanJob }): Promise<string> {
  const payload = parseJob(scanJobSchema, job, `scan of ${job.repo} target ${job.target}`);
  const key = targetKey(payload.repo, payload.target);
  const added = await queues.scan(payload.cluster).add(SCAN_JOB, payload, {
    ...queues.scanJobOptions,
    // Without a revision (a comment, a scheduler tick) every request is new: BullMQ numbers it.
    ...(payload.revision ? { jobId: `${key}@${payload.revision}` } : {}),
    deduplication: { id: key, keepLastIfActive: true },
  });
  if (added.id === undefined) throw new Error(`BullMQ gave no job id for the scan of ${key}`);
  return added.id;
}
