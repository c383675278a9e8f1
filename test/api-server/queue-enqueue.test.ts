// Enqueueing scans: job ids per revision, coalescing per target, one queue per cluster.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { InvalidJobError, type ScanJob } from "../../src/queue/jobs.ts";
import type { ScanContext } from "../../src/queue/process-job.ts";
import { startScanWorkers } from "../../src/queue/scan-worker.ts";
import { gate, openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";

const sha = (n: number) => n.toString(16).padStart(40, "0");
const job = (overrides: Partial<ScanJob> = {}): ScanJob => ({
  installationId: 7,
  repo: "acme/gitops",
  target: "infra",
  cluster: "prod-eu",
  reason: "push",
  ...overrides,
});

let t: TestRedis;
beforeEach(async () => {
  t = await openTestRedis();
});
afterEach(async () => {
  await t.cleanup(["prod-eu", "staging"]);
});

describe("enqueueScan", () => {
  it("puts a scan in its cluster's queue with retries and bounded retention", async () => {
    const id = await enqueueScan({ queues: t.queues, job: job({ revision: sha(1) }) });
    expect(id).toBe(`acme/gitops#infra@${sha(1)}`);
    const stored = await t.queues.scan("prod-eu").getJob(id);
    expect(stored?.name).toBe("scan");
    expect(stored?.data).toEqual(job({ revision: sha(1) }));
    expect(stored?.opts.attempts).toBe(3);
    expect(stored?.opts.backoff).toEqual({ type: "undrift-retry", delay: 20 });
    expect(stored?.opts.removeOnComplete).toEqual({ count: 1000, age: 7 * 24 * 3600 });
    expect(stored?.opts.removeOnFail).toEqual({ count: 5000, age: 30 * 24 * 3600 });
    expect(await t.queues.scan("staging").count()).toBe(0);
  });

  it("adds nothing for a redelivered webhook of the same commit", async () => {
    const first = await enqueueScan({ queues: t.queues, job: job({ revision: sha(1) }) });
    const again = await enqueueScan({ queues: t.queues, job: job({ revision: sha(1), repo: "Acme/GitOps" }) });
    expect(again).toBe(first);
    expect(await t.queues.scan("prod-eu").getWaitingCount()).toBe(1);
  });

  it("folds a request into the target's scan that has not started yet", async () => {
    const first = await enqueueScan({ queues: t.queues, job: job({ revision: sha(1) }) });
    const second = await enqueueScan({ queues: t.queues, job: job({ revision: sha(2) }) });
    const comment = await enqueueScan({ queues: t.queues, job: job({ reason: "comment" }) });
    expect([second, comment]).toEqual([first, first]);
    expect(await t.queues.scan("prod-eu").getWaitingCount()).toBe(1);
  });

  it("keeps targets apart: another target of the repository gets its own scan", async () => {
    await enqueueScan({ queues: t.queues, job: job({ revision: sha(1) }) });
    await enqueueScan({ queues: t.queues, job: job({ revision: sha(1), target: "apps" }) });
    await enqueueScan({ queues: t.queues, job: job({ revision: sha(1), target: "web", cluster: "staging" }) });
    expect(await t.queues.scan("prod-eu").getWaitingCount()).toBe(2);
    expect(await t.queues.scan("staging").getWaitingCount()).toBe(1);
  });

  it("refuses a payload with a field that could carry a secret", async () => {
    const bad = { ...job(), kubeconfig: "apiVersion: v1\nusers: [{token: x}]" } as ScanJob;
    await expect(enqueueScan({ queues: t.queues, job: bad })).rejects.toThrow(InvalidJobError);
    expect(await t.queues.scan("prod-eu").count()).toBe(0);
  });
});

describe("scans of one target while one runs", () => {
  it("run exactly one more scan after ten rapid pushes, with the latest push", async () => {
    const running = gate();
    const release = gate();
    const scans: Array<{ job: ScanJob; context: ScanContext }> = [];
    const workers = startScanWorkers({
      queues: t.queues,
      clusters: ["prod-eu"],
      schedule: false,
      concurrency: 4,
      connection: t.workerConnection,
      log: t.log,
      handlers: {
        async scan(scanJob, context) {
          scans.push({ job: scanJob, context });
          if (scans.length === 1) {
            running.open();
            await release.promise;
          }
          return { revision: scanJob.revision };
        },
        report: async () => {},
      },
    });
    try {
      const first = await enqueueScan({ queues: t.queues, job: job({ revision: sha(0) }) });
      await running.promise;
      for (let i = 1; i <= 10; i++) await enqueueScan({ queues: t.queues, job: job({ revision: sha(i) }) });
      // The same commit as the running scan is not a new request at all.
      await enqueueScan({ queues: t.queues, job: job({ revision: sha(0) }) });
      expect(scans).toHaveLength(1);
      release.open();

      const queue = t.queues.scan("prod-eu");
      await waitFor("two completed scans", async () => (await queue.getCompletedCount()) === 2);
      // A scan of another target, queued after those two ended: once it has run, a third scan of infra queued
      // before it would have run before it or beside it.
      const marker = await enqueueScan({ queues: t.queues, job: job({ target: "marker", revision: sha(99) }) });
      await waitFor("the marker's scan to complete", async () => (await queue.getJobState(marker)) === "completed");
      // Nothing else is waiting to run, and nothing ran alongside.
      expect(await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed")).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        completed: 3,
        failed: 0,
      });
      const infra = scans.filter((scan) => scan.job.target === "infra");
      expect(infra.map((scan) => scan.job.revision)).toEqual([sha(0), sha(10)]);
      expect(infra.map((scan) => scan.context.jobId)).toEqual([first, `acme/gitops#infra@${sha(10)}`]);
    } finally {
      release.open();
      await workers.close();
    }
  });

  it("never run two scans of one target at once, even with room for more", async () => {
    let active = 0;
    let most = 0;
    const workers = startScanWorkers({
      queues: t.queues,
      clusters: ["prod-eu"],
      schedule: false,
      concurrency: 8,
      connection: t.workerConnection,
      log: t.log,
      handlers: {
        async scan() {
          active++;
          most = Math.max(most, active);
          await new Promise((resolve) => setTimeout(resolve, 40));
          active--;
        },
        report: async () => {},
      },
    });
    try {
      for (let i = 0; i < 30; i++) {
        await enqueueScan({
          queues: t.queues,
          job: job({ revision: sha(i), reason: i % 3 === 0 ? "comment" : "push" }),
        });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const queue = t.queues.scan("prod-eu");
      await waitFor("the queue to drain", async () => {
        const counts = await queue.getJobCounts("waiting", "active", "delayed");
        return Object.values(counts).every((count) => count === 0);
      });
      expect(most).toBe(1);
      expect(await queue.getCompletedCount()).toBeLessThan(30);
    } finally {
      await workers.close();
    }
  });
});
