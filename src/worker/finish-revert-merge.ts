// The end of every merge job, applied or refused: the one comment on the pull
// request (found again by its marker), one audit entry, and the job's result.

import type { GitHubClient } from "../github/github-client.ts";
import { ensureRevertMergeComment } from "../github/revert-merge-comment.ts";
import { isDeletion } from "../model/change-set.ts";
import { objectLabel } from "../model/object-label.ts";
import type { ScanJob } from "../queue/jobs.ts";
import { type RevertMergeOutcome, revertMergeComment } from "../report/app/revert-merge-body.ts";
import { recordAudit } from "../state/record-audit.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What a merge job did, kept as its result: names only, never values. */
export interface RevertMergeResult {
  outcome: "applied" | "refused" | "handed-off";
  revision: string;
  pullRequest: number;
  /** `configured <object>`, `deleted <object>`: what was applied or pruned. */
  applied: string[];
  /** Objects held back, and orphans not pruned. */
  skipped: string[];
  actions: string[];
}

/** The merge job a step refused, for the reason `why`: nothing applied. */
export function refusedMerge(job: ScanJob, revision: string, why: string): RevertMergeOutcome {
  return {
    target: job.target,
    cluster: job.cluster,
    revision,
    applied: [],
    pruned: [],
    held: [],
    settled: [],
    refused: why,
  };
}

export async function finishRevertMerge(params: {
  deps: WorkerDeps;
  job: ScanJob;
  octokit: GitHubClient;
  pullNumber: number;
  revision: string;
  outcome: RevertMergeOutcome;
}): Promise<RevertMergeResult> {
  const { deps, job, octokit, pullNumber, revision, outcome } = params;
  const [owner = "", repo = ""] = job.repo.split("/");
  const comment = await ensureRevertMergeComment({
    octokit,
    owner,
    repo,
    pullNumber,
    target: job.target,
    body: revertMergeComment(outcome),
  });
  const deleted = outcome.pruned.filter(isDeletion);
  const applied = [...outcome.applied, ...deleted].map((r) => `${r.action} ${objectLabel(r)}`);
  const skipped = [
    ...outcome.held.map((h) => objectLabel(h.object)),
    ...outcome.pruned.filter((r) => !isDeletion(r)).map(objectLabel),
  ];
  await recordAudit({
    queues: deps.queues,
    log: deps.log,
    entry: {
      repo: job.repo,
      target: job.target,
      actor: "undrift",
      event: outcome.refused ? "revert-refused" : outcome.handedOff ? "revert-handed-off" : "revert-applied",
      cluster: job.cluster,
      revision,
      outcome:
        outcome.refused ??
        (outcome.handedOff
          ? `pull request #${pullNumber}: asked ${outcome.handedOff.reconciler} to reconcile (${outcome.handedOff.annotation}: ${outcome.handedOff.value}), ${skipped.length} skipped`
          : `pull request #${pullNumber}: ${applied.length} applied, ${skipped.length} skipped`),
      objects: [...applied, ...skipped],
      ...(comment.url ? { url: comment.url } : {}),
    },
  });
  return {
    outcome: outcome.refused ? "refused" : outcome.handedOff ? "handed-off" : "applied",
    revision,
    pullRequest: pullNumber,
    applied,
    skipped,
    actions: comment.action === "unchanged" ? [] : [`${comment.action} comment on pull request #${pullNumber}`],
  };
}
