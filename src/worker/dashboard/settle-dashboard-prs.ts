// After a scan: the codify and revert PRs opened from the dashboard of a target
// whose modes keep no such PR (a warn target: codify and revert mode settle
// their own, settle-drift-pr.ts) are closed with a comment once none of the
// items they carry drifts any more, as a mode's PR is when its drift is gone.
// Which PRs are open, and their items, come from Redis (dashboard-state.ts), so
// a scan of a target without such a PR asks GitHub nothing; closing one costs
// 4 requests (lookup, comment, close, branch deleted). An ignore PR is never
// recorded here: it proposes a rule, which the drift going away does not settle.
import { closeDriftPr } from "../../github/close-drift-pr.ts";
import type { DriftReport } from "../../model/types.ts";
import type { ModeResult } from "../../modes/mode-result.ts";
import { recordPrAction } from "../../modes/settle-drift-pr.ts";
import { stillDrifts } from "../../plan/selected-drift.ts";
import { dashboardState } from "../../state/dashboard-state.ts";
import type { ResolvedScanTarget } from "../resolve-scan-target.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export async function settleDashboardPrs(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
  /** The whole report, snoozed objects included: a snoozed object's drift is not gone. */
  report: DriftReport;
  /** The modes the scan acted in: a mode of these settles its own PR. */
  modes: readonly string[];
}): Promise<ModeResult> {
  const { deps, resolved, report } = params;
  const result: ModeResult = { done: [], lines: [] };
  const state = dashboardState({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: `${resolved.owner}/${resolved.repo}`,
    target: resolved.target.name,
  });
  for (const { mode, items } of await state.openPrs()) {
    if (params.modes.includes(mode)) continue;
    // What could not be compared may be what the PR carries: closing it would be a guess.
    if (report.problems.length > 0 || items.some((item) => stillDrifts(report, item))) continue;
    const closed = await closeDriftPr({
      octokit: resolved.reads,
      owner: resolved.owner,
      repo: resolved.repo,
      target: resolved.target.name,
      mode,
      revision: report.revision,
    });
    recordPrAction(result, closed);
    // Closed now, or by a person before: either way there is nothing left to settle.
    await state.forgetPr(mode);
  }
  return result;
}
