// An app worker process for the recovery tests: `node test/helpers/app-worker-child.ts`
// runs the app's scan handlers on one cluster's scan queue, as `undrift worker`
// does, with its settings in the environment. Probot takes its own options
// from the environment (APP_ID, PRIVATE_KEY, GHE_HOST, GHE_PROTOCOL), so the
// test points GitHub at its relay (github-relay.ts) on loopback. Prints
// `ready` on stdout once it takes jobs. With WATCH_LEASE_MS it also watches the
// cluster as `undrift worker` does, under a lease of that many milliseconds, so
// a test can kill the process that holds a cluster's watches.
import { appendFile } from "node:fs/promises";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { createProbot, ProbotOctokit } from "probot";
import { loadClusterRegistry } from "../../src/config/cluster-registry.ts";
import { renderThreadHeaps } from "../../src/desired/render-in-worker.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues } from "../../src/queue/create-queues.ts";
import { stderrLog } from "../../src/queue/queue-log.ts";
import { startScanWorkers } from "../../src/queue/scan-worker.ts";
import { scanHandlers } from "../../src/worker/scan-handlers.ts";
import { watchClusters } from "../../src/worker/watch-clusters.ts";
import { eventually } from "./eventually.ts";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const url = env("REDIS_URL");
const lockDuration = Number(env("LOCK_MS"));
const registry = await loadClusterRegistry(env("UNDRIFT_CLUSTERS"));
// REDIS_URL is the queues'; Probot would cluster its throttling on it. As in the test process, each request is one request.
const probot = createProbot({
  env: { ...process.env, REDIS_URL: "" },
  overrides: { Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }) },
});
await probot.ready();
const redis = createRedisConnection({ role: "producer", url });
const queues = createQueues({ connection: redis, prefix: env("PREFIX"), log: stderrLog });
const leaseTtlMs = process.env.WATCH_LEASE_MS ? Number(process.env.WATCH_LEASE_MS) : undefined;
const watching =
  leaseTtlMs === undefined
    ? undefined
    : watchClusters({ queues, connection: redis, clusters: [env("CLUSTER")], log: stderrLog, leaseTtlMs });
const workers = startScanWorkers({
  queues,
  clusters: [env("CLUSTER")],
  schedule: false,
  connection: createRedisConnection({ role: "worker", url }),
  timing: { lockDuration, stalledInterval: lockDuration },
  log: stderrLog,
  ...(watching ? { fromWatches: watching.watching } : {}),
  handlers: scanHandlers({
    probot,
    queues,
    registry,
    snapshotDir: env("UNDRIFT_SNAPSHOT_DIR"),
    log: stderrLog,
    ...(watching ? { sessions: watching.sessions, triggers: watching.triggers } : {}),
  }),
});
await Promise.all(workers.workers.map((worker) => worker.waitUntilReady()));
// Ready means ready to watch too: the test kills the lease's holder, not a process still racing for it.
if (watching)
  await eventually("the worker to hold the watch lease", () => watching.watching(env("CLUSTER")), {
    timeoutMs: 60_000,
    intervalMs: 50,
  });
process.stdout.write("ready\n");
// MEMORY_LOG_MS: every that many ms, a line of where the worker's memory is (Node's process.memoryUsage, V8's
// malloced memory, each render thread's used/total heap, and each of its heap spaces' used/committed size, in MB) appended to MEMORY_LOG_FILE, to tell a
// benchmark's RSS apart into what V8 holds and what it only keeps committed.
if (process.env.MEMORY_LOG_MS) {
  const file = process.env.MEMORY_LOG_FILE ?? "/tmp/undrift-worker-memory.log";
  const mb = (n: number) => Math.round(n / 1048576);
  setInterval(async () => {
    const m = process.memoryUsage();
    const threads = (await renderThreadHeaps()).map((t) => `${mb(t.used_heap_size)}/${mb(t.total_heap_size)}`);
    const line = [
      `rss=${mb(m.rss)} heapUsed=${mb(m.heapUsed)} heapTotal=${mb(m.heapTotal)} external=${mb(m.external)}`,
      `arrayBuffers=${mb(m.arrayBuffers)} malloced=${mb(getHeapStatistics().malloced_memory)} threads=${threads.join(",")}`,
      // Each heap space's used/committed size: which of them V8 keeps larger than what it holds.
      ...getHeapSpaceStatistics().map((s) => `${s.space_name}=${mb(s.space_used_size)}/${mb(s.space_size)}`),
    ];
    await appendFile(file, `${new Date().toISOString()} ${line.join(" ")}\n`);
  }, Number(process.env.MEMORY_LOG_MS)).unref();
}
