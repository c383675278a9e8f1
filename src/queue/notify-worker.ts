// The worker of the notify queue: runs the injected `send` per job and judges
// its error once, as scans are judged (classify-error.ts): permanent (a 4xx, a
// channel the registry no longer has) fails the job for good; transient (5xx,
// 429, network) is retried with backoff, never sooner than a Retry-After. A
// job cut short by shutdown goes back to the wait list for another worker.
//
//   const notifier = startNotifyWorker({ queues, connection, send });
//   await notifier.close();
import { type Job, UnrecoverableError, WaitingError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { classifyError } from "./classify-error.ts";
import { isRedisConnectionError } from "./connection.ts";
import type { UndriftQueues } from "./create-queues.ts";
import { parseJob } from "./jobs.ts";
import { NOTIFY_QUEUE, type NotifyJob, notifyJobSchema } from "./notify-jobs.ts";
import type { QueueLog } from "./queue-log.ts";
import { retryBackoff } from "./retry-backoff.ts";
import type { WorkerTiming } from "./scan-worker.ts";

/** What `send` is told besides the payload. */
export interface NotifyContext {
  /** The delivery id: the job's id, the same on every attempt. */
  delivery: string;
  attempt: number;
  signal: AbortSignal;
}

/** Sends one notification; what it returns is the job's result. */
export type SendNotification = (job: NotifyJob, context: NotifyContext) => Promise<unknown>;

export interface NotifyWorker {
  readonly worker: Worker;
  /** Stops taking jobs, lets a running send finish for `graceMs`, hands back the rest. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export function startNotifyWorker(params: {
  queues: UndriftQueues;
  /** A worker connection (maxRetriesPerRequest: null). */
  connection: Redis;
  send: SendNotification;
  /** Notifications sent at once by this process. Default 4. */
  concurrency?: number;
  timing?: WorkerTiming;
  log: QueueLog;
}): NotifyWorker {
  const { log } = params;
  let handingBack = false;
  // Keep the third parameter: BullMQ passes the abort signal only to a processor declaring it.
  const processor = async (job: Job, token?: string, signal?: AbortSignal) => {
    let payload: NotifyJob;
    try {
      payload = parseJob(notifyJobSchema, job.data, `job ${job.id}`);
    } catch (error) {
      throw unrecoverable(error as Error);
    }
    const aborted = signal ?? new AbortController().signal;
    try {
      return await params.send(payload, { delivery: job.id ?? "", attempt: job.attemptsMade + 1, signal: aborted });
    } catch (thrown) {
      if (aborted.aborted && handingBack) {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      if (classifyError(error) === "permanent") throw unrecoverable(error);
      throw error;
    }
  };
  const worker = new Worker(NOTIFY_QUEUE, processor, {
    connection: params.connection,
    prefix: params.queues.prefix,
    concurrency: params.concurrency ?? 4,
    settings: { backoffStrategy: retryBackoff },
    ...params.timing,
  });
  worker.on("error", (error) => {
    if (!isRedisConnectionError(error)) log.error({ queue: NOTIFY_QUEUE, err: error }, "queue worker error");
  });
  // The error's message names the channel and the status, never the channel's URL.
  worker.on("failed", (job, error) =>
    log.warn(
      { queue: NOTIFY_QUEUE, jobId: job?.id, channel: job?.data?.channel, attemptsMade: job?.attemptsMade, err: error },
      "notification failed",
    ),
  );
  let closing: Promise<void> | undefined;
  return {
    worker,
    close(options = {}) {
      closing ??= (async () => {
        const timer = setTimeout(() => {
          handingBack = true;
          worker.cancelAllJobs("undrift worker is shutting down");
        }, options.graceMs ?? 20_000);
        try {
          await worker.close(params.connection.status !== "ready");
        } finally {
          clearTimeout(timer);
        }
      })();
      return closing;
    },
  };
}

function unrecoverable(error: Error): UnrecoverableError {
  const failure = new UnrecoverableError(error.message);
  failure.cause = error;
  return failure;
}
