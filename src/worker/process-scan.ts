// The worker's scan of one target, the same stages the CLI runs:
//   1. the target resolved once (resolve-scan-target.ts): the job's cluster
//      checked against the registry (refused: nothing is read), GitHub as the
//      installation with conditional reads, the default branch head (a 304 when
//      it has not moved), the snapshot at that commit (cached on disk by SHA),
//      its config and the target (moved to another cluster: handed over)
//   2. the scan on the cluster's shared session, its report naming the commit
//      and, from the cluster's records of writes, who changed each field, less
//      the objects snoozed from the dashboard
//   3. the modes' actions, each on its share of the report (act-on-shares.ts):
//      warn, codify, revert, heal; the dashboard's PRs whose drift is gone closed
//      (settle-dashboard-prs.ts); an audit entry per action
//   4. the check run `undrift/<target>` on the head
//   5. the status page's record of it (record-status.ts)
//   6. the notifications it calls for, when the config has `notifications` (notify-scan.ts)
// A scan that finds what the last one found writes nothing on GitHub.
import { forgetTarget, recordModeEvents, recordScan } from "../metrics/record-scan.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import { summaryLine } from "../report/summary-line.ts";
import { reportAudit } from "../state/report-audit.ts";
import { actOnShares } from "./act-on-shares.ts";
import { attributeScan } from "./attribute-scan.ts";
import { auditModeActions } from "./audit-mode-actions.ts";
import { settleDashboardPrs } from "./dashboard/settle-dashboard-prs.ts";
import { withoutSnoozed } from "./dashboard/without-snoozed.ts";
import { notifyScan } from "./notify/notify-scan.ts";
import { scanLinks } from "./notify/scan-links.ts";
import { postScanCheck } from "./post-scan-check.ts";
import { recordStatus } from "./record-status.ts";
import { resolveScanTarget } from "./resolve-scan-target.ts";
import { scanJobAudit } from "./scan-job-audit.ts";
import { scanOnSharedSession } from "./scan-on-shared-session.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What a scan job did, kept as its result: small, and free of values. */
export interface ScanOutcome {
  outcome: "scanned" | "no-config" | "target-gone" | "moved" | "discovered";
  revision: string;
  summary?: string;
  fingerprint?: string;
  /** The GitHub writes made, as `created check run`, `opened issue #3`. */
  actions: string[];
}

export async function processScan(params: {
  deps: WorkerDeps;
  job: ScanJob;
  context: ScanContext;
}): Promise<ScanOutcome> {
  const { deps, job } = params;
  const { signal } = params.context;
  const audit = scanJobAudit({ deps, job });

  // 1. The target, resolved once; a job with nothing to scan ends here.
  const found = await resolveScanTarget({ deps, job, signal, audit });
  if ("skipped" in found) {
    // A target removed from the config, or moved to another cluster, is no longer this cluster's to report on.
    if (found.skipped.outcome === "target-gone" || found.skipped.outcome === "moved") {
      forgetTarget({ repo: job.repo, target: job.target, cluster: job.cluster });
      deps.triggers?.forget(job);
    }
    return found.skipped;
  }
  const { resolved } = found;
  const { head, target } = resolved;
  const cluster = target.cluster;
  const labels = { repo: job.repo, target: target.name, cluster };

  // 2. The scan, and who changed what: every output below reads this one report.
  const { scan: scanned, client } = await scanOnSharedSession({ deps, resolved });
  // From now on a change the cluster's watch sees on one of its objects queues the next scan.
  deps.triggers?.track({ ...job, cluster }, target.tracking.selector);
  const attributed = await attributeScan({ deps, cluster, report: scanned.report, job });
  // Objects snoozed from the tracking issue's dashboard are left out until their time.
  const { scan, snoozed } = await withoutSnoozed({ deps, repo: job.repo, scan: { ...scanned, report: attributed } });
  const { report } = scan;
  recordScan({ ...labels, report });
  await audit({ event: "scan", cluster, revision: head.sha, outcome: summaryLine(report), ...reportAudit(report) });
  signal.throwIfAborted();

  // 3. The modes' actions, each on its share of the report (rules pick the mode per object).
  const { mode, shares } = await actOnShares({ deps, resolved, scan, client });
  // The dashboard's PRs of a mode the target does not use, once the drift they carry is gone.
  const settled = await settleDashboardPrs({ deps, resolved, report: attributed, modes: shares.map((s) => s.mode) });
  mode.done.push(...settled.done);
  const actions = await auditModeActions({ audit, mode, cluster, revision: head.sha });
  recordModeEvents({ ...labels, events: mode.done.map((d) => d.event) });

  // 4. The check run on the head.
  const check = await postScanCheck({ resolved, report, mode, shares, audit });
  actions.push(...check.actions);

  // 5. The status page's record.
  await recordStatus({ deps, job, cluster, report, mode });

  // 6. The notifications, once per new drift, when the repository asks for them.
  // A last valid config kept in Redis before notifications existed has no such field.
  const notifications = resolved.config.notifications ?? [];
  if (notifications.length > 0) {
    const links = scanLinks({ mode, ...(check.url ? { checkUrl: check.url } : {}) });
    actions.push(
      ...(await notifyScan({
        deps,
        repo: job.repo,
        notifications,
        cluster,
        report,
        snoozed: { refs: snoozed, unsnoozed: attributed },
        mode,
        links,
        scanJobId: params.context.jobId,
      })),
    );
  }
  return {
    outcome: "scanned",
    revision: head.sha,
    summary: summaryLine(report),
    fingerprint: report.fingerprint,
    actions,
  };
}
