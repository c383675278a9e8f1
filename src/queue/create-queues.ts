// The producer side of the queues: the schedule queue and one scan queue per
// cluster, made on first use, sharing one Redis connection. The web process
// enqueues through it; workers use it too, to turn scheduler ticks into scans.
//
//   const queues = createQueues({});                   // REDIS_URL
//   await enqueueScan({ queues, job });
//   await queues.close();
import { type JobsOptions, Queue } from "bullmq";
import type { Redis } from "ioredis";
import { createRedisConnection, isRedisConnectionError } from "./connection.ts";
import { SCHEDULE_QUEUE, type ScanJob, type ScheduledScanJob, scanQueueName } from "./jobs.ts";
import { NOTIFY_JOB_OPTIONS, NOTIFY_QUEUE, type NotifyJob } from "./notify-jobs.ts";
import { type QueueLog, stderrLog } from "./queue-log.ts";
import { RETRY_BACKOFF } from "./retry-backoff.ts";

/** How scan jobs retry and how many finished ones Redis keeps. */
export interface ScanJobSettings {
  /** Tries in all, the first included; transient errors are retried until then. Default 5. */
  attempts: number;
  /** First retry delay; it doubles each time (15s, 30s, 1m, 2m by default), and is never shorter than a rate limit's Retry-After. */
  backoffMs: number;
  /** Completed scans kept, and for how long: their job ids stop repeated webhooks of a revision. */
  keepCompleted: { count: number; ageSeconds: number };
  /** Failed scans kept, and for how long, to inspect. */
  keepFailed: { count: number; ageSeconds: number };
}

/** Five tries over about four minutes; a week of finished scans, a month of failed ones. */
export const DEFAULT_SCAN_JOB_SETTINGS: ScanJobSettings = {
  attempts: 5,
  backoffMs: 15_000,
  keepCompleted: { count: 1000, ageSeconds: 7 * 24 * 3600 },
  keepFailed: { count: 5000, ageSeconds: 30 * 24 * 3600 },
};

/** The schedule queue, the scan queues by cluster, and the job options scans are added with. */
export interface UndriftQueues {
  /** BullMQ's key prefix; workers must use the same. */
  readonly prefix: string;
  readonly connection: Redis;
  readonly schedule: Queue<ScheduledScanJob>;
  /** The scan queue of `cluster`, made on first use. */
  scan(cluster: string): Queue<ScanJob>;
  /** The notify queue (notify-jobs.ts), made on first use: only repositories with `notifications` need it. */
  notify(): Queue<NotifyJob>;
  /** Options every notify job is added with: attempts, backoff (Retry-After honoured), retention. */
  readonly notifyJobOptions: JobsOptions;
  /** Options every scan job is added with: attempts, backoff, retention. */
  readonly scanJobOptions: JobsOptions;
  /** Options of the scheduler ticks, which only enqueue. */
  readonly tickJobOptions: JobsOptions;
  /** Closes the queues, and the connection when createQueues opened it. */
  close(): Promise<void>;
}

/** Queues on `connection` (a producer connection to REDIS_URL, owned by the queues, when none is given). */
export function createQueues(params: {
  connection?: Redis;
  /** BullMQ key prefix; tests use a random one. Default "undrift". */
  prefix?: string;
  scanJobs?: Partial<ScanJobSettings>;
  /** How notify jobs retry and are kept; default NOTIFY_JOB_OPTIONS (tests make retries quick). */
  notifyJobs?: Partial<ScanJobSettings>;
  log?: QueueLog;
}): UndriftQueues {
  const prefix = params.prefix ?? "undrift";
  const log = params.log ?? stderrLog;
  const owned = params.connection === undefined;
  const connection = params.connection ?? createRedisConnection({ role: "producer", log });
  const settings = { ...DEFAULT_SCAN_JOB_SETTINGS, ...params.scanJobs };
  const listen = <Q extends Queue>(queue: Q): Q => {
    // A queue re-emits its connection's errors; with no listener they would crash the process. Redis being
    // unreachable is said once by the connection (connection.ts), not once per queue and attempt.
    queue.on("error", (error) => {
      if (!isRedisConnectionError(error)) log.error({ err: error, queue: queue.name }, "redis error");
    });
    return queue;
  };
  const schedule = listen(new Queue<ScheduledScanJob>(SCHEDULE_QUEUE, { connection, prefix }));
  const scanQueues = new Map<string, Queue<ScanJob>>();
  let notifyQueue: Queue<NotifyJob> | undefined;
  let closed = false;
  const notifyOptions = { ...NOTIFY_JOB_OPTIONS, ...params.notifyJobs };

  return {
    prefix,
    connection,
    schedule,
    scan(cluster) {
      if (closed) throw new Error("the queues are closed");
      let queue = scanQueues.get(cluster);
      if (!queue) {
        queue = listen(new Queue<ScanJob>(scanQueueName(cluster), { connection, prefix }));
        scanQueues.set(cluster, queue);
      }
      return queue;
    },
    notify() {
      if (closed) throw new Error("the queues are closed");
      notifyQueue ??= listen(new Queue<NotifyJob>(NOTIFY_QUEUE, { connection, prefix }));
      return notifyQueue;
    },
    notifyJobOptions: {
      attempts: notifyOptions.attempts,
      backoff: { type: RETRY_BACKOFF, delay: notifyOptions.backoffMs },
      removeOnComplete: { count: notifyOptions.keepCompleted.count, age: notifyOptions.keepCompleted.ageSeconds },
      removeOnFail: { count: notifyOptions.keepFailed.count, age: notifyOptions.keepFailed.ageSeconds },
    },
    scanJobOptions: {
      attempts: settings.attempts,
      // Exponential from backoffMs, but not sooner than the failure asked (retry-backoff.ts); workers resolve the type.
      backoff: { type: RETRY_BACKOFF, delay: settings.backoffMs },
      removeOnComplete: { count: settings.keepCompleted.count, age: settings.keepCompleted.ageSeconds },
      removeOnFail: { count: settings.keepFailed.count, age: settings.keepFailed.ageSeconds },
    },
    tickJobOptions: {
      attempts: 3,
      backoff: { type: "exponential", delay: 5_000 },
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 1000 },
    },
    async close() {
      if (closed) return;
      closed = true;
      const all = [schedule, ...scanQueues.values(), ...(notifyQueue ? [notifyQueue] : [])];
      await Promise.all(all.map((queue) => queue.close()));
      if (owned) await connection.quit();
    },
  };
}
