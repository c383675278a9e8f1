// The status page's history in the real Redis: bounded by age (14 days) and by
// count whatever the scan rate, a failure marks the target failing and keeps
// what was last seen, and links a scan did not write are kept from the last one.
import { afterEach, describe, expect, it } from "vitest";
import { statusSummary } from "../../src/report/status/status-summary.ts";
import { HISTORY_MS, statusHistory } from "../../src/state/status-history.ts";
import { openTestRedis, type TestRedis } from "../helpers/redis.ts";
import { inSyncReport, sampleReport } from "../unit/report/sample-report.ts";

let r: TestRedis | undefined;
afterEach(async () => {
  await r?.cleanup();
  r = undefined;
});

const DAY = 24 * 3600 * 1000;
const installationId = 99;
const summary = (report = sampleReport(), links = {}) =>
  statusSummary({ repo: "acme/gitops", cluster: "prod", report, scannedAt: new Date(), links });

describe("the status history", () => {
  it("keeps 14 days of points, and no more than its cap however often a target is scanned", async () => {
    r = await openTestRedis();
    const start = Date.now() - 20 * DAY;
    let clock = start;
    const history = statusHistory({ redis: r.redis, prefix: r.prefix, now: () => clock, maxPoints: 50 });
    // A scan every 6 hours for 20 days: 80 points, 24 of them older than 14 days.
    for (let i = 0; i < 80; i++) {
      clock = start + i * 6 * 3600 * 1000;
      await history.recordScan({ installationId, status: summary(i % 2 ? sampleReport() : inSyncReport()) });
    }
    const [row] = await history.read({ installationId });
    expect(row?.points).toHaveLength(50);
    expect(row!.points[0]![0]).toBeGreaterThanOrEqual(clock - HISTORY_MS);
    expect(row!.points.map((p) => p[1])).toContain(5);
    expect(await r.redis.zcard(`${r.prefix}:status-history:${installationId}:acme/gitops#infra`)).toBe(50);
  });

  it("draws two scans with the same count in the same millisecond as two points", async () => {
    r = await openTestRedis();
    const clock = Date.now();
    const history = statusHistory({ redis: r.redis, prefix: r.prefix, now: () => clock });
    await history.recordScan({ installationId, status: summary() });
    await history.recordScan({ installationId, status: summary() });
    const [row] = await history.read({ installationId });
    expect(row?.points).toEqual([
      [clock, 5],
      [clock, 5],
    ]);
  });

  it("marks a failing target and keeps its last objects and links", async () => {
    r = await openTestRedis();
    const history = statusHistory({ redis: r.redis, prefix: r.prefix });
    await history.recordScan({
      installationId,
      status: summary(sampleReport(), { issue: "https://github.com/acme/gitops/issues/3" }),
    });
    await history.recordScan({
      installationId,
      status: summary(sampleReport(), { pr: "https://github.com/acme/gitops/pull/4" }),
    });
    await history.recordFailure({
      installationId,
      repo: "acme/gitops",
      target: "infra",
      cluster: "prod",
      message: "failed: connect ECONNREFUSED",
    });
    const [row] = await history.read({ installationId });
    expect(row?.status).toMatchObject({
      state: "failing",
      failure: { message: "failed: connect ECONNREFUSED" },
      links: { issue: "https://github.com/acme/gitops/issues/3", pr: "https://github.com/acme/gitops/pull/4" },
    });
    expect(row?.status.objects.map((o) => `${o.kind} ${o.name}`)).toContain("Deployment web");
    // The failure draws no point: its count is unknown.
    expect(row?.points).toHaveLength(2);
  });

  it("drops a target nobody has scanned for 14 days", async () => {
    r = await openTestRedis();
    let clock = Date.now() - 15 * DAY;
    const history = statusHistory({ redis: r.redis, prefix: r.prefix, now: () => clock });
    await history.recordScan({
      installationId,
      status: statusSummary({
        repo: "acme/gitops",
        cluster: "prod",
        report: sampleReport(),
        scannedAt: new Date(clock),
      }),
    });
    clock = Date.now();
    expect(await history.read({ installationId })).toEqual([]);
    expect(await r.redis.hlen(`${r.prefix}:status:${installationId}`)).toBe(0);
  });
});
