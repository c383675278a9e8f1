// A scan job's audit entries: each names the job's repository and target and
// undrift as the actor, so the steps of the pipeline say only what happened.
import type { ScanJob } from "../queue/jobs.ts";
import { recordAudit } from "../state/record-audit.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What a step of a scan job tells the audit log. */
export interface ScanAuditEntry {
  event: string;
  outcome: string;
  cluster?: string;
  revision?: string;
  url?: string;
  objects?: string[];
  fields?: string[];
  managers?: string[];
}

export type ScanAudit = (entry: ScanAuditEntry) => Promise<void>;

export function scanJobAudit(params: { deps: WorkerDeps; job: ScanJob }): ScanAudit {
  const { deps, job } = params;
  return (entry) =>
    recordAudit({
      queues: deps.queues,
      log: deps.log,
      entry: { repo: job.repo, target: job.target, actor: "undrift", ...entry },
    });
}
