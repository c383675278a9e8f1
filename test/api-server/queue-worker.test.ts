// The scan workers: the processor's outcomes (done, retried, failed for good and
// reported), worker affinity per cluster, the per-cluster rate limit, concurrency.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.ts";
import { ClusterUnreachableError, KubeApiError } from "../../src/live/errors.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import type { ScanJob } from "../../src/queue/jobs.ts";
import type { ScanContext, ScanHandlers } from "../../src/queue/process-job.ts";
import { takeScanSlot } from "../../src/queue/scan-rate.ts";
import { type ScanWorkers, startScanWorkers } from "../../src/queue/scan-worker.ts";
import { gate, openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";

const job = (overrides: Partial<ScanJob> = {}): ScanJob => ({
  installationId: 7,
  repo: "acme/gitops",
  target: "infra",
  cluster: "prod-eu",
  reason: "push",
  ...overrides,
});

// The GitHub side's error: Octokit's RequestError has an HTTP status.
class GitHubError extends Error {
  override name = "HttpError";
  readonly status: number;
  constructor(status: number) {
    super(`GitHub answered ${status}`);
    this.status = status;
  }
}

let t: TestRedis;
let workers: ScanWorkers | undefined;
beforeEach(async () => {
  t = await openTestRedis();
});
afterEach(async () => {
  await workers?.close();
  workers = undefined;
  await t.cleanup(["prod-eu", "staging"]);
});

function start(
  handlers: ScanHandlers,
  options: {
    clusters?: string[];
    concurrency?: number;
    limiter?: { max: number; duration: number };
    fromWatches?: (cluster: string) => boolean;
  } = {},
) {
  workers = startScanWorkers({
    queues: t.queues,
    clusters: options.clusters ?? ["prod-eu"],
    schedule: false,
    connection: t.workerConnection,
    log: t.log,
    handlers,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.limiter ? { limiter: options.limiter } : {}),
    ...(options.fromWatches ? { fromWatches: options.fromWatches } : {}),
  });
  return workers;
}

async function finished(id: string, cluster = "prod-eu") {
  const queue = t.queues.scan(cluster);
  const state = await waitFor(`job ${id} to finish`, async () => {
    const now = await queue.getJobState(id);
    return now === "completed" || now === "failed" ? now : undefined;
  });
  // Read the job after it settled: a copy read before would show the attempt in flight.
  const settled = await queue.getJob(id);
  if (!settled) throw new Error(`job ${id} is gone`);
  return { job: settled, state };
}

describe("the scan processor", () => {
  it("runs the injected scan with the payload and keeps what it returns", async () => {
    const contexts: ScanContext[] = [];
    start({
      scan: async (payload, context) => {
        contexts.push(context);
        return { target: payload.target, drifted: 2 };
      },
      report: async () => {
        throw new Error("nothing to report");
      },
    });
    const id = await enqueueScan({ queues: t.queues, job: job() });
    const { job: done, state } = await finished(id);
    expect(state).toBe("completed");
    expect(done.returnvalue).toEqual({ target: "infra", drifted: 2 });
    expect(contexts).toEqual([{ jobId: id, attempt: 1, signal: expect.any(AbortSignal) }]);
  });

  it("fails a config error at once, without retry, and reports it to the repository", async () => {
    const reports: Array<{ payload: ScanJob; error: Error }> = [];
    let scans = 0;
    const configError = new ConfigError(".github/undrift.yml:4: targets[0].mode: invalid", {
      file: ".github/undrift.yml",
    });
    start({
      scan: async () => {
        scans++;
        throw configError;
      },
      report: async (payload, error) => {
        reports.push({ payload, error });
      },
    });
    const id = await enqueueScan({ queues: t.queues, job: job() });
    const { job: failed, state } = await finished(id);
    expect(state).toBe("failed");
    expect(scans).toBe(1);
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toBe(configError.message);
    expect(reports).toEqual([{ payload: job(), error: configError }]);
  });

  it("retries a transient error with backoff, and reports nothing when a retry succeeds", async () => {
    const attempts: number[] = [];
    let reports = 0;
    start({
      scan: async (_payload, { attempt }) => {
        attempts.push(attempt);
        if (attempt < 3)
          throw new ClusterUnreachableError("https://10.0.0.1:6443", { cause: new Error("ECONNREFUSED") });
        return "ok";
      },
      report: async () => {
        reports++;
      },
    });
    const id = await enqueueScan({ queues: t.queues, job: job() });
    const { job: done, state } = await finished(id);
    expect(state).toBe("completed");
    expect(attempts).toEqual([1, 2, 3]);
    expect(reports).toBe(0);
    expect(done.attemptsMade).toBe(3);
  });

  it("reports a transient error once, after the last attempt", async () => {
    const reported: Array<{ attempt: number; status: number }> = [];
    let attempt = 0;
    start({
      scan: async () => {
        attempt++;
        throw new KubeApiError({
          status: 503,
          reason: "ServiceUnavailable",
          message: "etcd",
          verb: "GET",
          path: "/api",
        });
      },
      report: async (_payload, error) => {
        reported.push({ attempt, status: (error as KubeApiError).status });
      },
    });
    const id = await enqueueScan({ queues: t.queues, job: job() });
    const { state } = await finished(id);
    expect(state).toBe("failed");
    expect(reported).toEqual([{ attempt: 3, status: 503 }]);
  });

  it("asks the GitHub side's hook which of its errors are transient", async () => {
    const runs: Record<string, number> = {};
    start({
      scan: async (payload) => {
        runs[payload.target] = (runs[payload.target] ?? 0) + 1;
        throw new GitHubError(payload.target === "limited" ? 403 : 404);
      },
      report: async () => {},
      // A 403 here stands for a secondary rate limit: the GitHub side knows it by its headers.
      isTransient: (error) => (error instanceof GitHubError && error.status === 403 ? true : undefined),
    });
    const limited = await enqueueScan({ queues: t.queues, job: job({ target: "limited" }) });
    const missing = await enqueueScan({ queues: t.queues, job: job({ target: "missing" }) });
    await finished(limited);
    await finished(missing);
    expect(runs).toEqual({ limited: 3, missing: 1 });
  });

  it("does not lose a failure when reporting it fails: the job is retried and the report made then", async () => {
    let reportCalls = 0;
    let scans = 0;
    start({
      scan: async () => {
        scans++;
        throw new ConfigError(".github/undrift.yml: invalid", { file: ".github/undrift.yml" });
      },
      report: async () => {
        reportCalls++;
        if (reportCalls === 1) throw new GitHubError(502);
      },
    });
    const id = await enqueueScan({ queues: t.queues, job: job() });
    const { job: failed, state } = await finished(id);
    expect(state).toBe("failed");
    expect({ scans, reportCalls }).toEqual({ scans: 2, reportCalls: 2 });
    expect(failed.failedReason).toBe(".github/undrift.yml: invalid");
  });

  it("fails a job with an unknown name or an invalid payload for good", async () => {
    let scans = 0;
    start({
      scan: async () => {
        scans++;
      },
      report: async () => {},
    });
    const queue = t.queues.scan("prod-eu");
    const unknown = await queue.add("rescan-everything" as "scan", job(), { attempts: 3 });
    const invalid = await queue.add("scan", { ...job(), token: "ghs_x" } as ScanJob, { attempts: 3 });
    const a = await finished(unknown.id!);
    const b = await finished(invalid.id!);
    expect([a.state, a.job.attemptsMade, a.job.failedReason]).toEqual([
      "failed",
      1,
      `job ${unknown.id}: unknown job name "rescan-everything"`,
    ]);
    expect([b.state, b.job.attemptsMade]).toEqual(["failed", 1]);
    expect(b.job.failedReason).toContain("invalid payload");
    expect(scans).toBe(0);
  });
});

describe("workers per cluster", () => {
  it("serve only the clusters they name: another cluster's scans wait for their own worker", async () => {
    const scanned: string[] = [];
    start(
      { scan: async (payload) => void scanned.push(payload.cluster), report: async () => {} },
      { clusters: ["prod-eu"] },
    );
    const staging = await enqueueScan({ queues: t.queues, job: job({ cluster: "staging", target: "web" }) });
    const prod = await enqueueScan({ queues: t.queues, job: job() });
    await finished(prod);
    // No worker of this process listens on staging's queue at all (Redis's client list, as BullMQ reads it), so
    // no later moment could see its scan taken.
    expect(await t.queues.scan("staging").getWorkersCount()).toBe(0);
    expect(await t.queues.scan("prod-eu").getWorkersCount()).toBeGreaterThan(0);
    expect(scanned).toEqual(["prod-eu"]);
    expect(await (await t.queues.scan("staging").getJob(staging))?.getState()).toBe("waiting");
  });

  it("rate-limit each cluster on its own", async () => {
    // One scan a minute per cluster: within the test, each cluster's window holds one scan, and the others wait
    // in the delayed set for the windows ahead, without an attempt. A limit shared by the clusters would let one
    // scan in, not one per cluster.
    const scanned: string[] = [];
    const duration = 60_000;
    start(
      { scan: async (payload) => void scanned.push(payload.cluster), report: async () => {} },
      { clusters: ["prod-eu", "staging"], concurrency: 4, limiter: { max: 1, duration } },
    );
    const ids: Record<string, string[]> = { "prod-eu": [], staging: [] };
    for (const cluster of ["prod-eu", "staging"]) {
      for (const target of ["a", "b", "c"]) {
        ids[cluster]!.push(await enqueueScan({ queues: t.queues, job: job({ cluster, target }) }));
      }
    }
    for (const cluster of ["prod-eu", "staging"]) {
      const queue = t.queues.scan(cluster);
      const states = await waitFor(`${cluster}'s scans to run or wait for their window`, async () => {
        const now = await Promise.all(ids[cluster]!.map((id) => queue.getJobState(id)));
        const count = (state: string) => now.filter((one) => one === state).length;
        // Thrown, not returned: a timeout then names the states the jobs were last in.
        if (count("completed") !== 1 || count("delayed") !== 2) throw new Error(`the jobs are ${now.join(", ")}`);
        return now;
      });
      expect(states.filter((state) => state === "completed")).toHaveLength(1);
      const held = await Promise.all(
        ids[cluster]!.filter((_, i) => states[i] === "delayed").map(async (id) => (await queue.getJob(id))!),
      );
      for (const job of held) expect(job.attemptsMade).toBe(0);
      // The delays the worker computed from the window: the 2nd waits for the end of this window, the 3rd for the
      // end of the next one, a window later.
      const [next, after] = held.map((job) => job.delay).sort((x, y) => x - y) as [number, number];
      const left = await t.redis.pttl(`${t.queues.prefix}:scan-rate:${cluster}`);
      expect(left).toBeGreaterThan(0);
      expect(next).toBeGreaterThanOrEqual(left);
      expect(next).toBeLessThanOrEqual(duration);
      expect(after).toBeGreaterThanOrEqual(left + duration);
      expect(after).toBeLessThanOrEqual(2 * duration);
    }
    expect(scanned.sort()).toEqual(["prod-eu", "staging"]);
  });

  it("do not hold scans answered from the cluster's watches to the rate limit; a scan that would LIST waits", async () => {
    // Before: BullMQ's limiter held every job of the queue alike: a cycle of 1,000 watched targets, 33 minutes.
    let watching = true;
    const scanned: string[] = [];
    start(
      { scan: async (payload) => void scanned.push(payload.target), report: async () => {} },
      { limiter: { max: 1, duration: 60_000 }, fromWatches: (cluster) => watching && cluster === "prod-eu" },
    );
    const watched = [];
    for (const target of ["a", "b", "c"]) watched.push(await enqueueScan({ queues: t.queues, job: job({ target }) }));
    for (const id of watched) expect((await finished(id)).state).toBe("completed");
    expect(scanned.sort()).toEqual(["a", "b", "c"]);

    // The lease is lost: scans LIST again, one a minute here. The first takes the window's slot, the second waits
    // in the delayed set for the next window, without using an attempt.
    watching = false;
    const first = await enqueueScan({ queues: t.queues, job: job({ target: "d" }) });
    expect((await finished(first)).state).toBe("completed");
    const second = await enqueueScan({ queues: t.queues, job: job({ target: "e" }) });
    const queue = t.queues.scan("prod-eu");
    await waitFor(
      "the second scan to wait for the next window",
      async () => (await queue.getJobState(second)) === "delayed",
    );
    const held = await queue.getJob(second);
    expect(held?.attemptsMade).toBe(0);
    // It waits until the window the first scan took has ended, and no longer than one window.
    const left = await t.redis.pttl(`${t.queues.prefix}:scan-rate:prod-eu`);
    expect(left).toBeGreaterThan(0);
    expect(held?.delay).toBeGreaterThanOrEqual(left);
    expect(held?.delay).toBeLessThanOrEqual(60_000);
    expect(scanned).toHaveLength(4);
  });

  it("spread scans over the limit across the windows ahead, shared by every worker process", async () => {
    const rate = { max: 2, duration: 60_000 };
    const key = `${t.prefix}:scan-rate:spread`;
    const waits = [];
    // Redis's clock before the window opens: its expiry must be a whole window after.
    const [seconds, micros] = await t.redis.time();
    const before = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    // Two processes' connections take from one window.
    for (const redis of [t.redis, t.workerConnection, t.redis, t.workerConnection, t.redis]) {
      waits.push(await takeScanSlot(redis, key, rate));
    }
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    // The window lasts the configured minute.
    expect((await t.redis.pexpiretime(key)) - before).toBeGreaterThanOrEqual(60_000);
    // The 3rd and 4th wait for the next window (until this one ends), the 5th for the one after it.
    const left = await t.redis.pttl(key);
    expect(left).toBeGreaterThan(0);
    for (const wait of waits.slice(2, 4)) expect(wait).toBeGreaterThanOrEqual(left);
    for (const wait of waits.slice(2, 4)) expect(wait).toBeLessThanOrEqual(60_000);
    expect(waits[4]).toBeGreaterThanOrEqual(left + 60_000);
    expect(waits[4]).toBeLessThanOrEqual(120_000);
  });

  it("run scans of different targets side by side up to the concurrency", async () => {
    const release = gate();
    let active = 0;
    let most = 0;
    start(
      {
        scan: async () => {
          active++;
          most = Math.max(most, active);
          await release.promise;
          active--;
        },
        report: async () => {},
      },
      { concurrency: 3 },
    );
    const ids = [];
    for (const target of ["a", "b", "c", "d"]) ids.push(await enqueueScan({ queues: t.queues, job: job({ target }) }));
    await waitFor("three scans running", () => active === 3);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(active).toBe(3);
    release.open();
    for (const id of ids) await finished(id);
    expect(most).toBe(3);
  });
});
