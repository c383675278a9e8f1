// Step 4 of resolveScanTarget: the job's target among the config's (and, with
// `discover:`, those the job's cluster's reconcilers name). A
// target since removed ends the job (its scheduler goes with the push that
// removed it; this job was already queued); one moved to another cluster is
// handed to that cluster's queue, whose workers (and credentials) scan it.
import type { TargetConfig } from "../config/schema.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanAudit } from "./scan-job-audit.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** A job that ends before the scan: no config, its target gone, or moved to another cluster's queue. */
export interface SkippedScan {
  outcome: "no-config" | "target-gone" | "moved";
  revision: string;
  actions: string[];
}

/** The target this job's cluster scans, or why the job ends here. */
export async function findScanTarget(params: {
  deps: WorkerDeps;
  job: ScanJob;
  /** The config's targets, with those discovered on the job's cluster when it discovers there. */
  targets: readonly TargetConfig[];
  /** The head the config was read at. */
  revision: string;
  audit: ScanAudit;
}): Promise<{ target: TargetConfig } | { skipped: SkippedScan }> {
  const { deps, job, revision, audit } = params;
  const target = params.targets.find((t) => t.name === job.target);
  if (!target) {
    await audit({ event: "scan-skipped", revision, outcome: "the target is no longer in the config" });
    return { skipped: { outcome: "target-gone", revision, actions: [] } };
  }
  if (target.cluster !== job.cluster) {
    await enqueueScan({ queues: deps.queues, job: { ...job, cluster: target.cluster, revision } });
    const actions = [`handed to the queue of cluster ${target.cluster}`];
    return { skipped: { outcome: "moved", revision, actions } };
  }
  return { target };
}
