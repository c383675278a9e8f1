// Jobs survive what happens to workers and to Redis: a SIGTERM finishes or
// hands back the running scan, a killed worker's scan is picked up again, and a
// Redis restart under a running scan does not lose it. "Completes once" means
// BullMQ marks the job completed once and its effect, keyed by job id as
// undrift's GitHub writes are, exists once (delivery is at least once).
import { afterEach, describe, expect, it } from "vitest";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues, type UndriftQueues } from "../../src/queue/create-queues.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import type { ScanJob } from "../../src/queue/jobs.ts";
import { type ScanWorkers, startScanWorkers } from "../../src/queue/scan-worker.ts";
import { gate, memoryLog, openTestRedis, type TestRedis, testPrefix, waitFor } from "../helpers/redis.ts";
import { appliedEffects, applyEffect, effectRuns } from "../helpers/redis-effect.ts";
import { startRedisServer } from "../helpers/redis-server.ts";
import { startWorkerProcess, type WorkerProcess } from "../helpers/redis-worker-process.ts";

const CLUSTER = "prod-eu";
const job: ScanJob = { installationId: 7, repo: "acme/gitops", target: "infra", cluster: CLUSTER, reason: "comment" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redis(): Promise<TestRedis> {
  const t = await openTestRedis();
  cleanups.push(() => t.cleanup([CLUSTER]));
  return t;
}

async function workerProcess(t: TestRedis, settings: { scanMs: number; lockMs: number; graceMs: number }) {
  const child = await startWorkerProcess({ url: t.url, prefix: t.prefix, cluster: CLUSTER, ...settings });
  cleanups.push(() => child.stop());
  return child;
}

/** A worker in this process whose scan applies the test's effect at once. */
function inProcessWorker(t: TestRedis, timing: { lockDuration: number; stalledInterval: number }): ScanWorkers {
  const workers = startScanWorkers({
    queues: t.queues,
    clusters: [CLUSTER],
    schedule: false,
    connection: t.workerConnection,
    timing,
    log: t.log,
    handlers: {
      scan: async (_payload, { jobId }) => {
        await applyEffect(t.redis, t.prefix, jobId);
        return { scannedBy: "test" };
      },
      report: async (_payload, error) => {
        throw new Error(`unexpected report: ${error.message}`);
      },
    },
  });
  cleanups.push(() => workers.close());
  return workers;
}

/** The job once completed; when it does not within 30 s, the error says its state and what `child` printed. */
async function settled(queues: UndriftQueues, id: string, child?: WorkerProcess) {
  const queue = queues.scan(CLUSTER);
  try {
    await waitFor(`job ${id} to complete`, async () => (await queue.getJobState(id)) === "completed", 30_000);
  } catch (error) {
    const job = await queue.getJob(id);
    const state = `state ${await queue.getJobState(id)}, failed reason ${job?.failedReason ?? "none"}`;
    throw new Error(
      `${(error as Error).message} (${state})${child ? `; the worker process printed:\n${child.output()}` : ""}`,
    );
  }
  return (await queue.getJob(id))!;
}

async function startedIn(child: WorkerProcess): Promise<string> {
  return (await child.line(/^started (.+)$/))[1]!;
}

describe("SIGTERM to a worker process", () => {
  it("lets a running scan finish within the grace period, then exits", async () => {
    const t = await redis();
    const child = await workerProcess(t, { scanMs: 800, lockMs: 5000, graceMs: 10_000 });
    const id = await enqueueScan({ queues: t.queues, job });
    expect(await startedIn(child)).toBe(id);

    child.child.kill("SIGTERM");
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain("closed");
    const done = await settled(t.queues, id, child);
    expect(done.returnvalue).toEqual({ scannedBy: child.child.pid });
    expect(await appliedEffects(t.redis, t.prefix)).toEqual([id]);
  });

  it("hands a scan that outlasts the grace period back to the queue at once, for another worker", async () => {
    const t = await redis();
    // A long lock: the job must come back by the hand-back, not by lapsing into a stall.
    const child = await workerProcess(t, { scanMs: 60_000, lockMs: 60_000, graceMs: 300 });
    const id = await enqueueScan({ queues: t.queues, job });
    await startedIn(child);

    child.child.kill("SIGTERM");
    expect(await child.exited).toEqual({ code: 0, signal: null });
    // It exited when the grace period ran out, not when the 60 s scan or its lock would have ended: it says it
    // handed the job back, the job is waiting (not completed, not active under a lock) and its scan had no effect.
    expect(child.output()).toContain("running jobs outlasted the grace period; handing them back");
    expect(await t.queues.scan(CLUSTER).getJobState(id)).toBe("waiting");
    expect(await appliedEffects(t.redis, t.prefix)).toEqual([]);

    inProcessWorker(t, { lockDuration: 5000, stalledInterval: 5000 });
    const done = await settled(t.queues, id);
    expect(done.returnvalue).toEqual({ scannedBy: "test" });
    // The handed-back try neither failed nor stalled.
    expect(done.stalledCounter).toBe(0);
    expect(done.failedReason).toBeUndefined();
    expect(await appliedEffects(t.redis, t.prefix)).toEqual([id]);
  });
});

describe("a worker process killed mid-scan (SIGKILL)", () => {
  it("loses its lock; another worker picks the scan up as stalled and completes it once", async () => {
    const t = await redis();
    const child = await workerProcess(t, { scanMs: 60_000, lockMs: 1000, graceMs: 10_000 });
    const id = await enqueueScan({ queues: t.queues, job });
    await startedIn(child);
    child.child.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    expect(await t.queues.scan(CLUSTER).getJobState(id)).toBe("active");

    // A long lock for the worker that takes over: a busy machine holding its event loop past a second must not
    // make the job look stalled a second time (the killed worker's 1 s lock is what has to lapse).
    inProcessWorker(t, { lockDuration: 30_000, stalledInterval: 300 });
    const done = await settled(t.queues, id);
    expect(done.returnvalue).toEqual({ scannedBy: "test" });
    expect(done.stalledCounter).toBe(1);
    expect(await t.queues.scan(CLUSTER).getCompletedCount()).toBe(1);
    expect(await appliedEffects(t.redis, t.prefix)).toEqual([id]);
  });
});

describe("Redis restarted during a scan", () => {
  /** A private Redis with queues and a worker whose scan waits for `restarted`, then applies its effect on the shared Redis. */
  async function restartable(timing?: { lockDuration: number; stalledInterval: number }) {
    const server = await startRedisServer();
    // Stopped last, after the workers and queues that use it have closed.
    cleanups.push(() => server.stop());
    // Effects are written where they survive the restart: the shared Redis, not the one restarted.
    const shared = await redis();
    const prefix = testPrefix();
    const log = memoryLog();
    const producer = createRedisConnection({ role: "producer", url: server.url, log });
    const workerConnection = createRedisConnection({ role: "worker", url: server.url, log });
    const queues = createQueues({ connection: producer, prefix, log });
    const running = gate();
    const restarted = gate();
    const workers = startScanWorkers({
      queues,
      clusters: [CLUSTER],
      schedule: false,
      connection: workerConnection,
      log,
      ...(timing ? { timing } : {}),
      handlers: {
        scan: async (_payload, { jobId }) => {
          running.open();
          await restarted.promise;
          await applyEffect(shared.redis, shared.prefix, jobId);
        },
        report: async (_payload, error) => {
          throw new Error(`unexpected report: ${error.message}`);
        },
      },
    });
    cleanups.push(async () => {
      await workers.close({ graceMs: 1000 });
      await queues.close();
      producer.disconnect();
      workerConnection.disconnect();
    });
    return { server, shared, queues, log, running, restarted };
  }

  it("completes the scan once after the restart, and the workers go on taking scans", async () => {
    const { server, shared, queues, log, running, restarted } = await restartable();
    const id = await enqueueScan({ queues, job });
    await running.promise;
    await server.restart({ downMs: 1000 });
    restarted.open();

    const done = await settled(queues, id);
    expect(done.stalledCounter).toBe(0);
    expect(await queues.scan(CLUSTER).getCompletedCount()).toBe(1);
    expect(await appliedEffects(shared.redis, shared.prefix)).toEqual([id]);
    expect(await effectRuns(shared.redis, shared.prefix)).toEqual([id]);
    // The outage was seen once, and its end once: not a line per connection, queue and attempt.
    const said = (level: string) => log.entries.filter((entry) => entry.level === level).map((e) => e.message);
    expect(said("error")).toEqual([expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable \(/)]);
    expect(said("info")).toContainEqual(
      expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ is reachable again after \d+s$/),
    );

    const next = await enqueueScan({ queues, job: { ...job, target: "apps" } });
    await settled(queues, next);
    expect(await appliedEffects(shared.redis, shared.prefix)).toEqual([id, next]);
  });

  it("runs the scan again when its lock lapsed during a long restart, and its effect still happens once", async () => {
    const { server, shared, queues, running, restarted } = await restartable({
      lockDuration: 1000,
      stalledInterval: 300,
    });
    const id = await enqueueScan({ queues, job });
    await running.promise;
    await server.restart({ downMs: 2500 });
    // The lock expired while Redis was down: the stalled check hands the job out again.
    await waitFor(
      "the scan to be taken up again",
      async () => ((await queues.scan(CLUSTER).getJob(id))?.stalledCounter ?? 0) > 0,
    );
    restarted.open();

    const done = await settled(queues, id);
    expect(done.stalledCounter).toBe(1);
    expect(await queues.scan(CLUSTER).getCompletedCount()).toBe(1);
    expect(await effectRuns(shared.redis, shared.prefix)).toEqual([id, id]);
    expect(await appliedEffects(shared.redis, shared.prefix)).toEqual([id]);
  });
});
