// An ignore job's last step when a dashboard tick asked for it: the tick's
// line ("… → the ignore pull request is being prepared") rewritten to name the
// pull request the job opened or updated, or why there is none, in the log
// later scans render and in the tracking issue now. A job no tick asked for
// (its line is not in the log) leaves the issue alone.
//   1. the tick's line looked for in the log Redis keeps; none there, nothing to do
//   2. the tracking issue, by the number its last scan kept: one read, and an
//      edit only when the tick's line is still in it; then the line in Redis
import { rewriteIssueBody } from "../../github/issue-body.ts";
import type { IgnoreJob } from "../../queue/jobs.ts";
import { replaceLogLine } from "../../report/app/dashboard-boxes.ts";
import { type IgnoreTickOutcome, ignoreTickLine } from "../../report/app/dashboard-ignore-line.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import { trackingIssueNumbers } from "../../state/tracking-issue-numbers.ts";
import type { ResolvedScanTarget } from "../resolve-scan-target.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export async function settleIgnoreLine(params: {
  deps: WorkerDeps;
  job: IgnoreJob;
  resolved: Pick<ResolvedScanTarget, "octokit" | "owner" | "repo">;
  outcome: IgnoreTickOutcome;
}): Promise<void> {
  const { deps, job, resolved, outcome } = params;
  const { octokit, owner, repo } = resolved;
  const pending = ignoreTickLine({ requestedBy: job.requestedBy, items: job.items });
  const done = ignoreTickLine({ requestedBy: job.requestedBy, items: job.items, outcome });

  // 1. Only a line a tick wrote is rewritten.
  const redis = { redis: deps.queues.connection, prefix: deps.queues.prefix };
  const state = dashboardState({ ...redis, repo: job.repo, target: job.target });
  if (!(await state.log()).includes(pending)) return;

  // 2. The issue as it is now, then the log: a retry after a failed edit still finds the line to rewrite.
  const issue = await trackingIssueNumbers(redis).get(job.repo, job.target);
  if (issue !== undefined) {
    await rewriteIssueBody({
      octokit,
      owner,
      repo,
      issue,
      rewrite: (before) => replaceLogLine(before, pending, done),
      steps: { read: `read tracking issue #${issue}`, edit: `name the ignore pull request on #${issue}` },
    });
  }
  await state.replaceLog(pending, done);
}
