// Real Redis for queue tests (REDIS_URL, default the shared one on loopback),
// with a random BullMQ key prefix per test, as bullmq's own tests do, and a
// cleanup that obliterates the test's queues and sweeps every key left under
// its prefix.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { redisUrl } from "../../src/config/redis-url.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues, type ScanJobSettings, type UndriftQueues } from "../../src/queue/create-queues.ts";
import type { QueueLog } from "../../src/queue/queue-log.ts";
import { eventually } from "./eventually.ts";

/** A unique key prefix for one test. */
export function testPrefix(): string {
  return `undrift-test-${randomUUID().slice(0, 8)}`;
}

/** A QueueLog that keeps what it is told, for assertions. */
export interface MemoryLog extends QueueLog {
  entries: Array<{ level: string; message: string; fields: Record<string, unknown> }>;
}

export function memoryLog(): MemoryLog {
  const entries: MemoryLog["entries"] = [];
  const at = (level: string) => (fields: object, message: string) => {
    entries.push({ level, message, fields: fields as Record<string, unknown> });
  };
  return { entries, info: at("info"), warn: at("warn"), error: at("error") };
}

export interface TestRedis {
  prefix: string;
  url: string;
  queues: UndriftQueues;
  /** A producer connection, for the queues and for reading keys in assertions. */
  redis: Redis;
  /** A worker connection (maxRetriesPerRequest: null) for startScanWorkers. */
  workerConnection: Redis;
  log: MemoryLog;
  /** Obliterates the queues of `clusters` and the schedule queue, sweeps the prefix, closes everything. */
  cleanup(clusters?: readonly string[]): Promise<void>;
}

/** Queues under a fresh prefix; retries are quick unless `scanJobs` says otherwise. */
export async function openTestRedis(
  options: { url?: string; scanJobs?: Partial<ScanJobSettings>; notifyJobs?: Partial<ScanJobSettings> } = {},
): Promise<TestRedis> {
  const url = options.url ?? redisUrl();
  const prefix = testPrefix();
  const log = memoryLog();
  const redis = createRedisConnection({ role: "producer", url, name: `${prefix}-producer` });
  const workerConnection = createRedisConnection({ role: "worker", url, name: `${prefix}-worker` });
  const queues = createQueues({
    connection: redis,
    prefix,
    log,
    scanJobs: { attempts: 3, backoffMs: 20, ...options.scanJobs },
    notifyJobs: { backoffMs: 20, ...options.notifyJobs },
  });
  await redis.ping();
  return {
    prefix,
    url,
    queues,
    redis,
    workerConnection,
    log,
    async cleanup(clusters = []) {
      for (const queue of [queues.schedule, ...clusters.map((cluster) => queues.scan(cluster))]) {
        await queue.obliterate({ force: true });
      }
      await queues.close();
      await sweep(redis, prefix);
      await Promise.all([redis.quit(), workerConnection.quit()]);
    },
  };
}

/** Deletes every key under `prefix:`. */
export async function sweep(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== "0");
}

/** `eventually` with this file's bounds: Redis answers in milliseconds, so a short interval keeps tests quick. */
export function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | undefined>> {
  return eventually(what, check, { timeoutMs, intervalMs: 25 });
}

/** A promise with its resolve function, for a test to hold a job open. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
