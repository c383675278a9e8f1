// The work the queue's processor runs for scan jobs: the scan (or, for a
// merged revert pull request, the apply of what it approved), the report of a
// scan that failed for good, and the GitHub side's verdict on its own errors
// (a 5xx or a rate limit is retried; a 403 or a refused snapshot is not).
// Pull request previews ride the same queues and the same verdicts (src/app/preview/), and so do
// the tracking issue dashboard's jobs (src/worker/dashboard/) and ignore requests (process-ignore.ts).

import { discoveryCluster } from "../config/discovery-target.ts";
import { isTransientGitHubError } from "../github/github-errors.ts";
import { SessionPool } from "../live/session-pool.ts";
import { recordScanEnd } from "../metrics/record-scan.ts";
import type { ScanHandlers } from "../queue/process-job.ts";
import { processDashboard } from "./dashboard/process-dashboard.ts";
import { reportDashboardFailure } from "./dashboard/report-dashboard-failure.ts";
import { processPreview } from "./preview/process-preview.ts";
import { reportPreviewFailure } from "./preview/report-preview-failure.ts";
import { processDiscovery } from "./process-discovery.ts";
import { processIgnore, reportIgnoreFailure } from "./process-ignore.ts";
import { processRevertMerge } from "./process-revert-merge.ts";
import { processScan } from "./process-scan.ts";
import { reportScanFailure } from "./report-scan-failure.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export function scanHandlers(workerDeps: WorkerDeps): ScanHandlers {
  // One pool per worker process: scans of a cluster that run together share its LISTs.
  const deps: WorkerDeps = { ...workerDeps, sessions: workerDeps.sessions ?? new SessionPool() };
  return {
    scan: async (job, context) => {
      if (job.reason === "merge") return processRevertMerge({ deps, job, context });
      try {
        // A `discover:` entry's tick queues the scans of what it finds; it scans nothing itself.
        const outcome =
          discoveryCluster(job.target) !== undefined
            ? await processDiscovery({ deps, job, context })
            : await processScan({ deps, job, context });
        // A discovery tick is no scan of its own: the scans it queues are counted when they end.
        if (outcome.outcome !== "scanned" && outcome.outcome !== "discovered")
          recordScanEnd({ cluster: job.cluster, result: "skipped" });
        return outcome;
      } catch (error) {
        // A scan cut short by a shutdown is handed back, not failed.
        if (!context.signal.aborted) recordScanEnd({ cluster: job.cluster, result: "failed" });
        throw error;
      }
    },
    report: (job, error) => reportScanFailure({ deps, job, error }),
    isTransient: isTransientGitHubError,
    preview: {
      run: (job, context) => processPreview({ deps, job, context }),
      report: (job, error) => reportPreviewFailure({ deps, job, error }),
    },
    ignore: {
      run: (job, context) => processIgnore({ deps, job, context }),
      report: (job, error) => reportIgnoreFailure({ deps, job, error }),
    },
    dashboard: {
      run: (job, context) => processDashboard({ deps, job, context }),
      report: (job, error) => reportDashboardFailure({ deps, job, error }),
    },
  };
}
