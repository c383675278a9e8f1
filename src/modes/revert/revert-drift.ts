// The revert side of a scan: the drift becomes one pull request on
// `undrift/revert/<target>` whose one commit writes the record file
// `.undrift/revert/<target>.yaml` (target, cluster, revision, fingerprint, the
// masked changes): merging it is the approval, and the audit trail lives in
// Git. The same drift later writes nothing; no drift closes the PR with a
// comment. Nothing touches the cluster here: the merge does (process-revert-merge.ts).
import type { PullRequestsConfig } from "../../config/schema.ts";
import { ensureDriftPr } from "../../github/ensure-drift-pr.ts";
import type { FoundPr } from "../../github/find-drift-pr.ts";
import type { GitHubClient } from "../../github/github-client.ts";
import type { DriftReport } from "../../model/types.ts";
import { renderRevertRecord, revertRecord, revertRecordPath } from "../../plan/revert/revert-record.ts";
import { revertPrBody } from "../../report/app/revert-pr-body.ts";
import type { ModeResult } from "../mode-result.ts";
import { recordPrAction, settleWithoutDrift, withHidden } from "../settle-drift-pr.ts";

export async function revertDrift(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  report: DriftReport;
  /** Fields the revert keeps live, by object key (keptLive), for the body. */
  kept: ReadonlyMap<string, string[]>;
  cluster: string;
  base: { branch: string; sha: string; treeSha: string };
  pullRequests: PullRequestsConfig;
  /** The open PR when the caller has looked it up already (the dashboard does, for the items it carries). */
  found?: { pr: FoundPr | undefined };
  /** A hidden line put first in the body (the dashboard's items, dashboard-ticks.ts). */
  hidden?: string;
}): Promise<ModeResult> {
  const { octokit, owner, repo, report, cluster } = params;
  const target = report.target;
  const result: ModeResult = { done: [], lines: [] };
  if (await settleWithoutDrift({ octokit, owner, repo, target, mode: "revert", report, result })) return result;
  const file = revertRecordPath(target);
  const approved = revertRecord({ report, cluster });
  const pr = await ensureDriftPr({
    octokit,
    owner,
    repo,
    target,
    mode: "revert",
    fingerprint: report.fingerprint,
    base: params.base,
    ...(params.found ? { found: params.found } : {}),
    files: [{ file, after: renderRevertRecord(approved) }],
    title: `undrift: revert drift of ${target} on ${cluster}`,
    body: withHidden(params.hidden, revertPrBody({ report, record: approved, file, kept: params.kept })),
    commitMessage: `undrift: record the drift of ${target} on ${cluster} to revert\n\nRevision scanned: ${report.revision}`,
    labels: params.pullRequests.labels,
    reviewers: params.pullRequests.reviewers,
  });
  recordPrAction(result, pr);
  if (pr.number !== undefined) result.pullRequest = { number: pr.number, ...(pr.url ? { url: pr.url } : {}) };
  result.lines.push(`Pull request: #${pr.number ?? "?"} ${pr.url ?? ""}`.trimEnd());
  result.lines.push(
    "Nothing was applied to the cluster: merging the pull request applies Git to the objects it lists.",
  );
  for (const warning of pr.warnings) result.lines.push(`Warning: ${warning}`);
  return result;
}
