// The status page's record of a finished scan (src/state/status-history.ts):
// the report's names, paths, managers and times, and where the modes last
// wrote (the tracking issue, the drift pull request). A failure that ended a
// job for good is recorded by report-scan-failure.ts.
import type { DriftReport } from "../model/types.ts";
import type { ModeResult } from "../modes/mode-result.ts";
import type { ScanJob } from "../queue/jobs.ts";
import { statusSummary, type TargetStatus } from "../report/status/status-summary.ts";
import { statusHistory } from "../state/status-history.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function recordStatus(params: {
  deps: WorkerDeps;
  job: ScanJob;
  cluster: string;
  report: DriftReport;
  mode: ModeResult;
}): Promise<void> {
  const { queues } = params.deps;
  const links: TargetStatus["links"] = {};
  for (const done of params.mode.done) {
    if (!done.url) continue;
    if (done.event.startsWith("issue-")) links.issue = done.url;
    else if (done.event.startsWith("pr-")) links.pr = done.url;
  }
  const status = statusSummary({
    repo: params.job.repo,
    cluster: params.cluster,
    report: params.report,
    scannedAt: new Date(),
    links,
  });
  await statusHistory({ redis: queues.connection, prefix: queues.prefix }).recordScan({
    installationId: params.job.installationId,
    status,
  });
}
