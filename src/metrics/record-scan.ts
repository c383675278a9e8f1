// What one scan job tells the metrics: its target's drift by status, its
// duration and requests, its result, and when it last succeeded. Counts only:
// a report's object names and values stay in the report.
import type { DriftReport } from "../model/types.ts";
import { metrics as processMetrics, type UndriftMetrics } from "./undrift-metrics.ts";

/** Where a scan's series belong. */
export interface ScanLabels {
  repo: string;
  target: string;
  cluster: string;
}

/** A finished scan: the drift gauges set to its counts (0 once drift is gone) and the scan counted. */
export function recordScan(params: ScanLabels & { report: DriftReport; metrics?: UndriftMetrics; now?: Date }): void {
  const m = params.metrics ?? processMetrics;
  const { repo, target, cluster, report } = params;
  const { drifted, missing, orphaned } = report.summary;
  for (const [status, count] of Object.entries({ drifted, missing, orphaned }))
    m.drift.set({ repo, target, cluster, status }, count);
  m.scans.inc({ cluster, result: drifted + missing + orphaned > 0 ? "drifted" : "in-sync" });
  m.lastSuccess.set({ repo, target, cluster }, Math.floor((params.now ?? new Date()).getTime() / 1000));
  const stats = report.stats;
  if (stats) {
    m.scanDuration.observe({ cluster }, stats.durationMs / 1000);
    // Dry-runs are the scan's only PATCHes; everything else it sends is a GET (discovery, LIST, GET).
    m.scanRequests.observe({ cluster, verb: "PATCH" }, stats.dryRuns);
    m.scanRequests.observe({ cluster, verb: "GET" }, Math.max(0, stats.requests - stats.dryRuns));
  }
}

/** A scan job that ended without a report: failed (its error), or skipped (no config, target gone or moved). */
export function recordScanEnd(params: { cluster: string; result: "failed" | "skipped"; metrics?: UndriftMetrics }) {
  (params.metrics ?? processMetrics).scans.inc({ cluster: params.cluster, result: params.result });
}

/** A target no longer scanned here (removed from the config, or moved to another cluster): its series go. */
export function forgetTarget(params: ScanLabels & { metrics?: UndriftMetrics }): void {
  const m = params.metrics ?? processMetrics;
  const { repo, target, cluster } = params;
  for (const status of ["drifted", "missing", "orphaned"]) m.drift.remove({ repo, target, cluster, status });
  m.lastSuccess.remove({ repo, target, cluster });
}

/** What heal did, from the mode's audit events: heals, prunes and fights counted per target. */
export function recordModeEvents(params: ScanLabels & { events: readonly string[]; metrics?: UndriftMetrics }): void {
  const m = params.metrics ?? processMetrics;
  const { repo, target, cluster } = params;
  for (const event of params.events) {
    if (event === "heal") m.heals.inc({ repo, target, cluster, result: "healed" });
    else if (event === "heal-failed") m.heals.inc({ repo, target, cluster, result: "failed" });
    else if (event === "heal-stopped") m.fights.inc({ repo, target, cluster });
    else if (event === "prune") m.prunes.inc({ repo, target, cluster, result: "deleted" });
    else if (event === "prune-refused") m.prunes.inc({ repo, target, cluster, result: "refused" });
  }
}
