// What a scan leaves on /metrics: counts by target and status, the scan's
// result, duration and requests, and heal's events; never an object's name.
import { describe, expect, it } from "vitest";
import { forgetTarget, recordModeEvents, recordScan, recordScanEnd } from "../../../src/metrics/record-scan.ts";
import { createMetrics } from "../../../src/metrics/undrift-metrics.ts";
import type { DriftReport } from "../../../src/model/types.ts";

const labels = { repo: "acme/gitops", target: "shop", cluster: "prod-eu" };
const report = (summary: DriftReport["summary"]): DriftReport => ({
  target: "shop",
  revision: "abc",
  summary,
  resources: [
    { apiVersion: "v1", kind: "Secret", namespace: "shop", name: "db-password", status: "drifted", changes: [] },
  ],
  problems: [],
  fingerprint: "f",
  stats: { objects: 5, desired: 4, requests: 12, dryRuns: 3, durationMs: 1500 },
});
const line = (text: string, series: string) => text.split("\n").find((l) => l.startsWith(series));

describe("recordScan", () => {
  it("sets the drift gauges of the target to the scan's counts, and to 0 once the drift is gone", async () => {
    const metrics = createMetrics();
    recordScan({ ...labels, metrics, report: report({ inSync: 1, drifted: 2, missing: 1, orphaned: 1 }) });
    let text = await metrics.registry.metrics();
    const drift = (status: string) =>
      line(text, `undrift_drift_objects{repo="acme/gitops",target="shop",cluster="prod-eu",status="${status}"}`);
    expect(drift("drifted")).toMatch(/ 2$/);
    expect(drift("missing")).toMatch(/ 1$/);
    expect(drift("orphaned")).toMatch(/ 1$/);
    expect(line(text, 'undrift_scans_total{cluster="prod-eu",result="drifted"}')).toMatch(/ 1$/);
    recordScan({ ...labels, metrics, report: report({ inSync: 5, drifted: 0, missing: 0, orphaned: 0 }) });
    text = await metrics.registry.metrics();
    expect([drift("drifted"), drift("missing"), drift("orphaned")].map((l) => l?.split(" ")[1])).toEqual([
      "0",
      "0",
      "0",
    ]);
    expect(line(text, 'undrift_scans_total{cluster="prod-eu",result="in-sync"}')).toMatch(/ 1$/);
    // Names of objects stay in the report.
    expect(text).not.toContain("db-password");
  });

  it("observes the duration in seconds and the requests by verb: dry-runs are PATCHes, the rest GETs", async () => {
    const metrics = createMetrics();
    recordScan({ ...labels, metrics, report: report({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 }) });
    const text = await metrics.registry.metrics();
    expect(line(text, 'undrift_scan_duration_seconds_sum{cluster="prod-eu"}')).toMatch(/ 1\.5$/);
    expect(line(text, 'undrift_scan_api_requests_sum{cluster="prod-eu",verb="PATCH"}')).toMatch(/ 3$/);
    expect(line(text, 'undrift_scan_api_requests_sum{cluster="prod-eu",verb="GET"}')).toMatch(/ 9$/);
  });

  it("keeps the last successful scan's time in Unix seconds, and forgets a target that moved", async () => {
    const metrics = createMetrics();
    const now = new Date("2026-12-02T03:00:00Z");
    recordScan({ ...labels, metrics, now, report: report({ inSync: 1, drifted: 0, missing: 0, orphaned: 0 }) });
    const series = 'undrift_last_successful_scan_timestamp_seconds{repo="acme/gitops",target="shop",cluster="prod-eu"}';
    expect(line(await metrics.registry.metrics(), series)).toBe(`${series} ${now.getTime() / 1000}`);
    forgetTarget({ ...labels, metrics });
    const text = await metrics.registry.metrics();
    expect(line(text, series)).toBeUndefined();
    expect(text).not.toContain('target="shop"');
  });
});

describe("recordScanEnd and recordModeEvents", () => {
  it("count failed scans by cluster and heal's heals, prunes and fights by target", async () => {
    const metrics = createMetrics();
    recordScanEnd({ metrics, cluster: "prod-eu", result: "failed" });
    recordModeEvents({
      ...labels,
      metrics,
      events: ["heal", "heal", "heal-failed", "heal-stopped", "prune", "issue-opened"],
    });
    const text = await metrics.registry.metrics();
    const t = 'repo="acme/gitops",target="shop",cluster="prod-eu"';
    expect(line(text, 'undrift_scans_total{cluster="prod-eu",result="failed"}')).toMatch(/ 1$/);
    expect(line(text, `undrift_heals_total{${t},result="healed"}`)).toMatch(/ 2$/);
    expect(line(text, `undrift_heals_total{${t},result="failed"}`)).toMatch(/ 1$/);
    expect(line(text, `undrift_heal_fights_total{${t}}`)).toMatch(/ 1$/);
    expect(line(text, `undrift_prunes_total{${t},result="deleted"}`)).toMatch(/ 1$/);
    expect(line(text, `undrift_prunes_total{${t},result="refused"}`)).toBeUndefined();
  });
});
