import { ensureDriftPr } from "../../github/ensure-drift-pr.ts";
import type { DriftReport } from "../../model/types.ts";
import { renderRevertRecord, revertRecord, revertRecordPath } from "../../plan/revert/revert-record.ts";
import { revertPrBody } from "../../report/app/revert-pr-body.ts";
import type { ModeResult } from "../mode-result.ts";
import { type DriftPrParams, recordPrAction, settleWithoutDrift, withHidden } from "../settle-drift-pr.ts";

export async function revertDrift(
  params: DriftPrParams & {
    report: DriftReport;
    /** Fields the revert keeps live, by object key (keptLive), for the body. */
    kept: ReadonlyMap<string, string[]>;
  },
): Promise<ModeResult> {
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
