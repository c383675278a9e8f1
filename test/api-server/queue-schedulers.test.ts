// Job schedulers: one per (repository, target), kept in step with the config,
// removed with the target, repository or installation, resynced at boot.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jitterOffset } from "../../src/queue/jitter-offset.ts";
import type { ScanJob } from "../../src/queue/jobs.ts";
import { removeScanSchedulers } from "../../src/queue/remove-scan-schedulers.ts";
import { startScanWorkers } from "../../src/queue/scan-worker.ts";
import { syncSchedulers } from "../../src/queue/sync-schedulers.ts";
import { type RepoTargets, upsertScanSchedulers } from "../../src/queue/upsert-scan-schedulers.ts";
import { openTestRedis, type TestRedis, waitFor } from "../helpers/redis.ts";

const MINUTE = 60_000;
const CLUSTERS = ["prod-eu", "staging", "dev"];

const gitops: RepoTargets = {
  installationId: 7,
  repo: "acme/gitops",
  scheduleMs: 15 * MINUTE,
  targets: [
    { name: "infra", cluster: "prod-eu" },
    { name: "apps", cluster: "staging" },
  ],
};

let t: TestRedis;
beforeEach(async () => {
  t = await openTestRedis();
});
afterEach(async () => {
  await t.cleanup(CLUSTERS);
});

/** The scans waiting in a cluster's queue, as (target, reason). */
async function waitingScans(cluster: string): Promise<Array<Pick<ScanJob, "repo" | "target" | "reason">>> {
  const jobs = await t.queues.scan(cluster).getWaiting();
  return jobs.map(({ data }) => ({ repo: data.repo, target: data.target, reason: data.reason })).reverse();
}

async function clearScans(): Promise<void> {
  for (const cluster of CLUSTERS) await t.queues.scan(cluster).obliterate({ force: true });
}

describe("upsertScanSchedulers", () => {
  it("gives each target a scheduler at its own offset in the period, and scans each at once", async () => {
    const before = Date.now();
    const changes = await upsertScanSchedulers({ queues: t.queues, repo: gitops, reason: "install" });
    expect(changes).toEqual({
      created: ["acme/gitops#infra", "acme/gitops#apps"],
      updated: [],
      unchanged: [],
      removed: [],
    });

    const infra = await t.queues.schedule.getJobScheduler("acme/gitops#infra");
    const offset = jitterOffset("acme/gitops#infra", 15 * MINUTE);
    expect(infra).toMatchObject({
      name: "scheduled-scan",
      every: 15 * MINUTE,
      offset,
      template: { data: { installationId: 7, repo: "acme/gitops", target: "infra", cluster: "prod-eu" } },
    });
    // The next tick is at the target's offset in the period, not now and not with the others.
    expect(infra?.next).toBeGreaterThan(before);
    expect(infra?.next).toBeLessThanOrEqual(Date.now() + 15 * MINUTE);
    expect((infra?.next ?? 0) % (15 * MINUTE)).toBe(offset);
    const apps = await t.queues.schedule.getJobScheduler("acme/gitops#apps");
    expect(apps?.next).not.toBe(infra?.next);

    expect(await waitingScans("prod-eu")).toEqual([{ repo: "acme/gitops", target: "infra", reason: "install" }]);
    expect(await waitingScans("staging")).toEqual([{ repo: "acme/gitops", target: "apps", reason: "install" }]);
  });

  it("changes nothing and scans nothing when the config is the same", async () => {
    await upsertScanSchedulers({ queues: t.queues, repo: gitops });
    const next = (await t.queues.schedule.getJobScheduler("acme/gitops#infra"))?.next;
    await clearScans();

    const changes = await upsertScanSchedulers({ queues: t.queues, repo: gitops });
    expect(changes.unchanged).toEqual(["acme/gitops#infra", "acme/gitops#apps"]);
    expect([...changes.created, ...changes.updated, ...changes.removed]).toEqual([]);
    expect((await t.queues.schedule.getJobScheduler("acme/gitops#infra"))?.next).toBe(next);
    expect(await t.queues.scan("prod-eu").count()).toBe(0);
  });

  it("keeps one scheduler per target when the repository is renamed in case only", async () => {
    await upsertScanSchedulers({ queues: t.queues, repo: gitops });
    const changes = await upsertScanSchedulers({ queues: t.queues, repo: { ...gitops, repo: "Acme/GitOps" } });
    expect(changes.updated).toEqual(["acme/gitops#infra", "acme/gitops#apps"]);
    expect(await t.queues.schedule.getJobSchedulersCount()).toBe(2);
    expect((await t.queues.schedule.getJobScheduler("acme/gitops#infra"))?.template?.data?.repo).toBe("Acme/GitOps");
  });

  it("updates the same scheduler when the schedule or the cluster changes, and scans it at once", async () => {
    await upsertScanSchedulers({ queues: t.queues, repo: gitops });
    await clearScans();

    const changes = await upsertScanSchedulers({
      queues: t.queues,
      repo: { ...gitops, scheduleMs: 30 * MINUTE, targets: [{ name: "infra", cluster: "dev" }, gitops.targets[1]!] },
    });
    expect(changes.updated).toEqual(["acme/gitops#infra", "acme/gitops#apps"]);
    expect(await t.queues.schedule.getJobSchedulersCount()).toBe(2);
    const infra = await t.queues.schedule.getJobScheduler("acme/gitops#infra");
    expect(infra).toMatchObject({
      every: 30 * MINUTE,
      offset: jitterOffset("acme/gitops#infra", 30 * MINUTE),
      template: { data: { cluster: "dev" } },
    });
    // One pending tick per scheduler, carrying the new cluster.
    const ticks = await t.queues.schedule.getDelayed();
    expect(ticks).toHaveLength(2);
    expect(ticks.find((tick) => tick.data.target === "infra")?.data.cluster).toBe("dev");
    expect(await waitingScans("dev")).toEqual([{ repo: "acme/gitops", target: "infra", reason: "config" }]);
    expect(await waitingScans("staging")).toEqual([{ repo: "acme/gitops", target: "apps", reason: "config" }]);
  });

  it("updates a scheduler made with other tick options without scanning: nothing changed for the target", async () => {
    const offset = jitterOffset("acme/gitops#infra", 15 * MINUTE);
    await t.queues.schedule.upsertJobScheduler(
      "acme/gitops#infra",
      { every: 15 * MINUTE, offset },
      {
        name: "scheduled-scan",
        data: { installationId: 7, repo: "acme/gitops", target: "infra", cluster: "prod-eu" },
        opts: { attempts: 1 },
      },
    );
    const changes = await upsertScanSchedulers({
      queues: t.queues,
      repo: { ...gitops, targets: [gitops.targets[0]!] },
    });
    expect(changes.updated).toEqual(["acme/gitops#infra"]);
    expect((await t.queues.schedule.getJobScheduler("acme/gitops#infra"))?.template?.opts?.attempts).toBe(3);
    expect(await t.queues.scan("prod-eu").count()).toBe(0);
  });

  it("removes the scheduler and pending tick of a target that left the config", async () => {
    await upsertScanSchedulers({ queues: t.queues, repo: gitops });
    const changes = await upsertScanSchedulers({
      queues: t.queues,
      repo: { ...gitops, targets: [gitops.targets[0]!] },
    });
    expect(changes).toMatchObject({ unchanged: ["acme/gitops#infra"], removed: ["acme/gitops#apps"] });
    expect(await t.queues.schedule.getJobScheduler("acme/gitops#apps")).toBeUndefined();
    expect((await t.queues.schedule.getDelayed()).map((tick) => tick.data.target)).toEqual(["infra"]);
  });
});

describe("removeScanSchedulers", () => {
  it("removes a repository's schedulers, or an installation's, and no others", async () => {
    const other: RepoTargets = { ...gitops, repo: "acme/other", targets: [{ name: "web", cluster: "dev" }] };
    const elsewhere: RepoTargets = { ...gitops, installationId: 8, repo: "globex/infra" };
    for (const repo of [gitops, other, elsewhere]) await upsertScanSchedulers({ queues: t.queues, repo });

    expect(await removeScanSchedulers({ queues: t.queues, repo: "ACME/other" })).toEqual(["acme/other#web"]);
    expect((await removeScanSchedulers({ queues: t.queues, installationId: 7 })).sort()).toEqual([
      "acme/gitops#apps",
      "acme/gitops#infra",
    ]);
    const left = await t.queues.schedule.getJobSchedulers();
    expect(left.map((scheduler) => scheduler.key).sort()).toEqual(["globex/infra#apps", "globex/infra#infra"]);
    expect(await t.queues.schedule.getDelayedCount()).toBe(2);
  });
});

describe("syncSchedulers at boot", () => {
  it("adds new repositories, updates changed targets, removes stale ones, and leaves unreadable repositories alone", async () => {
    const kept: RepoTargets = { ...gitops, repo: "acme/kept", targets: [{ name: "web", cluster: "dev" }] };
    const gone: RepoTargets = { ...gitops, repo: "acme/gone", targets: [{ name: "web", cluster: "dev" }] };
    for (const repo of [gitops, kept, gone]) await upsertScanSchedulers({ queues: t.queues, repo });
    await clearScans();

    const fresh: RepoTargets = {
      installationId: 9,
      repo: "initech/ops",
      scheduleMs: 5 * MINUTE,
      targets: [{ name: "core", cluster: "dev" }],
    };
    const changes = await syncSchedulers({
      queues: t.queues,
      repos: [{ ...gitops, targets: [{ name: "infra", cluster: "staging" }] }, fresh],
      keep: ["acme/kept"],
    });
    expect(changes).toEqual({
      created: ["initech/ops#core"],
      updated: ["acme/gitops#infra"],
      unchanged: [],
      removed: ["acme/gitops#apps", "acme/gone#web"],
    });
    const ids = (await t.queues.schedule.getJobSchedulers()).map((scheduler) => scheduler.key).sort();
    expect(ids).toEqual(["acme/gitops#infra", "acme/kept#web", "initech/ops#core"]);
    // First time on a repository: reason install; a config that changed while the app was down: config.
    expect(await waitingScans("dev")).toEqual([{ repo: "initech/ops", target: "core", reason: "install" }]);
    expect(await waitingScans("staging")).toEqual([{ repo: "acme/gitops", target: "infra", reason: "config" }]);

    // A second boot with the same state touches nothing.
    await clearScans();
    const again = await syncSchedulers({
      queues: t.queues,
      repos: [{ ...gitops, targets: [{ name: "infra", cluster: "staging" }] }, fresh],
      keep: ["acme/kept"],
    });
    expect(again).toEqual({
      created: [],
      updated: [],
      unchanged: ["acme/gitops#infra", "initech/ops#core"],
      removed: [],
    });
    for (const cluster of CLUSTERS) expect(await t.queues.scan(cluster).count()).toBe(0);
  });
});

describe("a scheduler's tick", () => {
  it("enqueues a scan of its target with reason schedule", async () => {
    const reasons: string[] = [];
    const workers = startScanWorkers({
      queues: t.queues,
      clusters: ["prod-eu"],
      connection: t.workerConnection,
      log: t.log,
      handlers: {
        scan: async (job) => {
          reasons.push(job.reason);
        },
        report: async () => {},
      },
    });
    try {
      await upsertScanSchedulers({
        queues: t.queues,
        repo: { ...gitops, scheduleMs: 400, targets: [{ name: "infra", cluster: "prod-eu" }] },
      });
      await waitFor("two scheduled scans", () => reasons.filter((reason) => reason === "schedule").length >= 2);
      expect(reasons[0]).toBe("config");
      // The tick only enqueued; the scan ran in the cluster's queue.
      const tick = (await t.queues.schedule.getCompleted())[0];
      expect(tick?.name).toBe("scheduled-scan");
      expect(tick?.returnvalue).toEqual({ scanJobId: expect.any(String) });
    } finally {
      await workers.close();
    }
  });
});
