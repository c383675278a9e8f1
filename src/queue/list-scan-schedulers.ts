// The job schedulers in the schedule queue, as undrift reads them back: one per
// (repository, target), with the tick payload it was made with.
import type { JobSchedulerJson } from "bullmq";
import type { UndriftQueues } from "./create-queues.ts";
import { type ScheduledScanJob, scheduledScanJobSchema } from "./jobs.ts";

/** A scheduler as stored; `job` is undefined when its payload is not one undrift made (it is then stale). */
export interface ScanScheduler {
  id: string;
  every: number | undefined;
  offset: number | undefined;
  job: ScheduledScanJob | undefined;
  /** The template's job options, to notice when the tick options changed. */
  opts: unknown;
}

/** Every scheduler of the schedule queue. One range read, so a tick that moves a scheduler meanwhile cannot hide it. */
export async function listScanSchedulers(queues: UndriftQueues): Promise<ScanScheduler[]> {
  const schedulers: JobSchedulerJson<unknown>[] = await queues.schedule.getJobSchedulers(0, -1, true);
  return schedulers.map((scheduler) => {
    const parsed = scheduledScanJobSchema.safeParse(scheduler.template?.data);
    return {
      id: scheduler.key,
      every: scheduler.every,
      offset: scheduler.offset,
      job: parsed.success ? parsed.data : undefined,
      opts: scheduler.template?.opts,
    };
  });
}
