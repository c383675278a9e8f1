// A worker process for the recovery tests: `node test/helpers/redis-worker-child.ts`
// with its settings in the environment. It serves one cluster's scan queue with
// a scan that takes SCAN_MS (or until it is aborted), closes on SIGTERM as
// `undrift worker` does, and tells the test what happens on stdout:
// `ready`, `started <jobId>`, `closed`.

import { closeOnSignals } from "../../src/queue/close-on-signals.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues } from "../../src/queue/create-queues.ts";
import { stderrLog } from "../../src/queue/queue-log.ts";
import { startScanWorkers } from "../../src/queue/scan-worker.ts";
import { memoryLog } from "./redis.ts";
import { applyEffect } from "./redis-effect.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const url = env("REDIS_URL");
const prefix = env("PREFIX");
const cluster = env("CLUSTER");
const scanMs = Number(env("SCAN_MS"));
const lockDuration = Number(env("LOCK_MS"));
const graceMs = Number(env("GRACE_MS"));

const redis = createRedisConnection({ role: "producer", url });
const workerConnection = createRedisConnection({ role: "worker", url });
const queues = createQueues({ connection: redis, prefix, log: memoryLog() });
const workers = startScanWorkers({
  queues,
  clusters: [cluster],
  schedule: false,
  connection: workerConnection,
  timing: { lockDuration, stalledInterval: lockDuration },
  // On stderr, which the test shows when a job does not end as it should (a grace period run out, a forced close).
  log: stderrLog,
  handlers: {
    async scan(_job, { jobId, signal }) {
      process.stdout.write(`started ${jobId}\n`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, scanMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(new DOMException("scan aborted", "AbortError"));
        });
      });
      await applyEffect(redis, prefix, jobId);
      return { scannedBy: process.pid };
    },
    async report(_job, error) {
      throw new Error(`the child was not meant to report: ${error.message}`);
    },
  },
});

closeOnSignals(async () => {
  await workers.close({ graceMs });
  await queues.close();
  await Promise.all([redis.quit(), workerConnection.quit()]);
  process.stdout.write("closed\n");
});

await Promise.all(workers.workers.map((worker) => worker.waitUntilReady()));
process.stdout.write("ready\n");
