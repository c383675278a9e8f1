// The processor of every undrift queue, switching on job.name. The real work is
// injected (`scan`, `report`), so this file only decides what an outcome means
// for BullMQ; it never swallows an error:
//   - a permanent error is reported to the repository, then fails the job for
//     good (UnrecoverableError, with the error as its cause);
//   - a transient error is rethrown, so BullMQ retries with backoff; after the
//     last attempt it is reported too (an unreachable cluster must be heard of);
//   - when `report` itself fails, its error is thrown instead, judged the same way;
//   - a job cut short by a graceful shutdown goes back to the wait list untouched.
import { type Job, type Processor, UnrecoverableError, WaitingError } from "bullmq";
import type { z } from "zod";
import { classifyError, type IsTransient } from "./classify-error.ts";
import type { UndriftQueues } from "./create-queues.ts";
import { enqueueScan } from "./enqueue-scan.ts";
import {
  DASHBOARD_JOB,
  type DashboardJob,
  dashboardJobSchema,
  IGNORE_JOB,
  type IgnoreJob,
  ignoreJobSchema,
  PREVIEW_JOB,
  type PreviewJob,
  parseJob,
  previewJobSchema,
  SCAN_JOB,
  SCHEDULED_SCAN_JOB,
  type ScanJob,
  scanJobSchema,
  scheduledScanJobSchema,
} from "./jobs.ts";

/** What a scan's function is told besides its payload. */
export interface ScanContext {
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
  /** Aborted when the worker shuts down: stop, and the job is handed back to another worker. */
  signal: AbortSignal;
}

/** The work the app injects. */
export interface ScanHandlers {
  /** Scans the target; what it returns is kept as the job's result, so keep it small and free of secrets. */
  scan(job: ScanJob, context: ScanContext): Promise<unknown>;
  /** Tells the repository that its scan failed for good (check run, tracking issue). */
  report(job: ScanJob, error: Error): Promise<void>;
  /** The GitHub side's verdict on its own errors; see classifyError. */
  isTransient?: IsTransient;
  /** Pull request previews, judged like scans: `report` shows a failure on the pull request. */
  preview?: {
    run(job: PreviewJob, context: ScanContext): Promise<unknown>;
    report(job: PreviewJob, error: Error): Promise<void>;
  };
  /** Ignore requests (ticked fields become an ignoreDifferences PR), judged like scans. */
  ignore?: {
    run(job: IgnoreJob, context: ScanContext): Promise<unknown>;
    report(job: IgnoreJob, error: Error): Promise<void>;
  };
  /** The boxes ticked on a tracking issue's dashboard, judged like scans: `report` says on the issue what failed. */
  dashboard?: {
    run(job: DashboardJob, context: ScanContext): Promise<unknown>;
    report(job: DashboardJob, error: Error): Promise<void>;
  };
}

/** The processor for workers of the schedule and scan queues; `handingBack()` is true once shutdown cancels jobs. */
export function createProcessor(params: {
  queues: UndriftQueues;
  handlers: ScanHandlers;
  handingBack: () => boolean;
}): Processor {
  const { queues } = params;
  // Keep the third parameter: BullMQ passes the abort signal only to a processor declaring it (function length).
  return async (job: Job, token?: string, signal?: AbortSignal) => {
    switch (job.name) {
      case SCAN_JOB: {
        const { scan, report } = params.handlers;
        return runJob({ ...params, job, token, signal: signal ?? aborts(), schema: scanJobSchema, run: scan, report });
      }
      case PREVIEW_JOB: {
        const preview = params.handlers.preview;
        if (!preview) throw new UnrecoverableError(`job ${job.id}: this worker runs no previews`);
        return runJob({ ...params, job, token, signal: signal ?? aborts(), schema: previewJobSchema, ...preview });
      }
      case IGNORE_JOB: {
        const ignore = params.handlers.ignore;
        if (!ignore) throw new UnrecoverableError(`job ${job.id}: this worker runs no ignore requests`);
        return runJob({ ...params, job, token, signal: signal ?? aborts(), schema: ignoreJobSchema, ...ignore });
      }
      case DASHBOARD_JOB: {
        const dashboard = params.handlers.dashboard;
        if (!dashboard) throw new UnrecoverableError(`job ${job.id}: this worker runs no dashboard jobs`);
        return runJob({ ...params, job, token, signal: signal ?? aborts(), schema: dashboardJobSchema, ...dashboard });
      }
      case SCHEDULED_SCAN_JOB: {
        const tick = parseJob(scheduledScanJobSchema, job.data, `job ${job.id}`);
        return { scanJobId: await enqueueScan({ queues, job: { ...tick, reason: "schedule" } }) };
      }
      default:
        throw new UnrecoverableError(`job ${job.id}: unknown job name "${job.name}"`);
    }
  };
}

/** A signal that never fires, for a processor BullMQ called without one. */
const aborts = () => new AbortController().signal;

/** A scan or preview job: its payload checked, its work run, its error judged and reported. */
async function runJob<T>(params: {
  job: Job;
  token: string | undefined;
  signal: AbortSignal;
  handlers: ScanHandlers;
  handingBack: () => boolean;
  schema: z.ZodType<T>;
  run(payload: T, context: ScanContext): Promise<unknown>;
  report(payload: T, error: Error): Promise<void>;
}): Promise<unknown> {
  const { job, token, signal, handlers } = params;
  const payload = unrecoverableOnThrow(() => parseJob(params.schema, job.data, `job ${job.id}`));
  try {
    return await params.run(payload, { jobId: job.id ?? "", attempt: job.attemptsMade + 1, signal });
  } catch (thrown) {
    if (signal.aborted && params.handingBack()) {
      // Shutdown: another worker runs it from the start; this attempt neither failed nor counts.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const error = asError(thrown);
    const kind = classifyError(error, handlers.isTransient);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (kind === "permanent" || lastAttempt) await reportOrThrow(handlers, () => params.report(payload, error), error);
    if (kind === "permanent") throw unrecoverable(error);
    throw error;
  }
}

async function reportOrThrow(handlers: ScanHandlers, report: () => Promise<void>, error: Error): Promise<void> {
  try {
    await report();
  } catch (thrown) {
    const reportError = asError(thrown);
    // Transient: the job is retried, scan and report both. Permanent: nobody will ever hear; fail loudly.
    if (classifyError(reportError, handlers.isTransient) === "transient") throw reportError;
    throw unrecoverable(
      new Error(`${error.message}; reporting it failed: ${reportError.message}`, { cause: reportError }),
    );
  }
}

function unrecoverableOnThrow<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw unrecoverable(asError(error));
  }
}

/** BullMQ's no-retry error with the message and the original as its cause. */
function unrecoverable(error: Error): UnrecoverableError {
  const failure = new UnrecoverableError(error.message);
  failure.cause = error;
  return failure;
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
