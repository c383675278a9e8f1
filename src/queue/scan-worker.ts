// The worker process's side of the queues: a BullMQ Worker per cluster it
// serves (`undrift worker --clusters a,b`), each with its concurrency and the
// cluster's rate limit (src/queue/scan-rate.ts: scans answered from the
// cluster's watches are not held to it), plus one on the schedule queue that
// turns ticks into scans. A worker can run inside the one cluster it serves and keep that
// cluster's credentials there.
//
//   const workers = startScanWorkers({ queues, clusters: ["prod-eu"], handlers: { scan, report } });
//   closeOnSignals(() => workers.close());
//
// Shutdown: close() stops taking jobs and waits for the running ones; when they
// outlast `graceMs`, their signals are aborted and each goes back to the wait
// list for another worker. A worker killed outright (SIGKILL, OOM, node lost)
// stops renewing its job locks; after `lockDuration` the stalled check of any
// live worker puts the job back, and it runs again.
import { DelayedError, type Job, type Processor, Worker, type WorkerOptions } from "bullmq";
import type { Redis } from "ioredis";
import { createRedisConnection, isRedisConnectionError } from "./connection.ts";
import type { UndriftQueues } from "./create-queues.ts";
import { SCAN_JOB, SCHEDULE_QUEUE, scanQueueName } from "./jobs.ts";
import { createProcessor, type ScanHandlers } from "./process-job.ts";
import { type QueueLog, stderrLog } from "./queue-log.ts";
import { retryBackoff } from "./retry-backoff.ts";
import { DEFAULT_SCAN_RATE, type ScanRate, takeScanSlot } from "./scan-rate.ts";

/** How long close() lets running scans finish before handing them back: inside Kubernetes' default 30s grace. */
export const DEFAULT_GRACE_MS = 20_000;

/** Lock and stalled-check timing; the defaults are BullMQ's (30s), tests make them short. */
export type WorkerTiming = Pick<
  WorkerOptions,
  "lockDuration" | "stalledInterval" | "maxStalledCount" | "drainDelay" | "runRetryDelay"
>;

export interface ScanWorkers {
  readonly workers: readonly Worker[];
  /** Stops taking jobs, lets running ones finish for `graceMs`, hands back the rest, and closes. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts the workers; `schedule: false` leaves scheduler ticks to other processes. */
export function startScanWorkers(params: {
  queues: UndriftQueues;
  /** The clusters whose scans this process runs. */
  clusters: readonly string[];
  handlers: ScanHandlers;
  /** Run the schedule queue's worker too. Default true; ticks need only Redis. */
  schedule?: boolean;
  /** Scans run at once per cluster by this process. Default 2. */
  concurrency?: number;
  /** Jobs started per cluster per period, across all worker processes. Default 30 a minute. */
  limiter?: ScanRate;
  /**
   * Whether this process's scans of `cluster` are answered from its watches now (it holds the cluster's watch
   * lease): such scans send no LIST and no GET, so `limiter`, which guards the API server, does not hold them.
   */
  fromWatches?: (cluster: string) => boolean;
  /** A worker connection (maxRetriesPerRequest: null); one is opened from REDIS_URL and owned when none is given. */
  connection?: Redis;
  timing?: WorkerTiming;
  log?: QueueLog;
}): ScanWorkers {
  const { queues } = params;
  const log = params.log ?? stderrLog;
  const owned = params.connection === undefined;
  const connection = params.connection ?? createRedisConnection({ role: "worker", log });
  let handingBack = false;
  const processor = createProcessor({ queues, handlers: params.handlers, handingBack: () => handingBack });
  // Scan jobs' backoff type is resolved here: exponential, but never sooner than a rate limit's Retry-After.
  const base: WorkerOptions = {
    connection,
    prefix: queues.prefix,
    settings: { backoffStrategy: retryBackoff },
    ...params.timing,
  };

  const observe = (worker: Worker, fields: object) => observeWorker(worker, fields, log);
  const rate = params.limiter ?? DEFAULT_SCAN_RATE;
  const fromWatches = params.fromWatches ?? (() => false);
  const workers = [...new Set(params.clusters)].map((cluster) => {
    const limited = rateLimited({ processor, connection, rate, key: scanRateKey(queues.prefix, cluster) });
    const worker = new Worker(
      scanQueueName(cluster),
      limited(() => fromWatches(cluster)),
      {
        ...base,
        concurrency: params.concurrency ?? 2,
      },
    );
    return observe(worker, { cluster });
  });
  if (params.schedule ?? true)
    workers.push(
      observe(new Worker(SCHEDULE_QUEUE, processor, { ...base, concurrency: 4 }), { queue: SCHEDULE_QUEUE }),
    );

  let closing: Promise<void> | undefined;
  return {
    workers,
    close(options = {}) {
      closing ??= closeWorkers({
        workers,
        connection,
        owned,
        log,
        graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
        handBack: () => {
          handingBack = true;
        },
      });
      return closing;
    },
  };
}

const scanRateKey = (prefix: string, cluster: string) => `${prefix}:scan-rate:${encodeURIComponent(cluster)}`;

/** A worker whose errors and failed jobs are logged: Redis being unreachable is said once by the connection (connection.ts), not per worker and attempt. */
function observeWorker(worker: Worker, fields: object, log: QueueLog): Worker {
  worker.on("error", (error) => {
    if (!isRedisConnectionError(error)) log.error({ ...fields, err: error }, "queue worker error");
  });
  worker.on("failed", (job, error) =>
    log.warn({ ...fields, jobId: job?.id, attemptsMade: job?.attemptsMade, err: error }, "job failed"),
  );
  return worker;
}

/**
 * A cluster's scan processor under its rate limit: a job over the limit waits in the delayed set for its window;
 * it is not an attempt. Scans answered from the process's watches send no LIST and no GET, so the limit, which
 * guards the API server, does not hold them.
 */
function rateLimited(params: { processor: Processor; connection: Redis; rate: ScanRate; key: string }) {
  const { processor, connection, rate, key } = params;
  // Keep the third parameter: BullMQ passes the abort signal only to a processor declaring it (function length).
  return (fromWatches: () => boolean): Processor =>
    async (job: Job, token?: string, signal?: AbortSignal) => {
      if (job.name !== SCAN_JOB || !fromWatches()) {
        const waitMs = await takeScanSlot(connection, key, rate);
        if (waitMs > 0) {
          await job.moveToDelayed(Date.now() + waitMs, token);
          throw new DelayedError();
        }
      }
      return processor(job, token, signal);
    };
}

/** Closes the workers, handing running jobs back once the grace period ends; the connection too when owned. */
async function closeWorkers(params: {
  workers: Worker[];
  connection: Redis;
  owned: boolean;
  log: QueueLog;
  graceMs: number;
  handBack: () => void;
}): Promise<void> {
  const { workers, connection, log, graceMs } = params;
  const timer = setTimeout(() => {
    params.handBack();
    log.info({ graceMs }, "running jobs outlasted the grace period; handing them back");
    for (const worker of workers) worker.cancelAllJobs("undrift worker is shutting down");
  }, graceMs);
  try {
    // With Redis unreachable nothing a job does can be saved: waiting for it would hold the shutdown
    // for as long as the outage lasts. Its lock expires and the stalled check of a live worker reruns it.
    const force = connection.status !== "ready";
    if (force) log.warn({}, "Redis is unreachable: closing without waiting for running jobs");
    await Promise.all(workers.map((worker) => worker.close(force)));
  } finally {
    clearTimeout(timer);
  }
  if (params.owned) await connection.quit();
}
