// Revert: the share's drift becomes the target's revert pull request with its
// record file (revert-drift.ts); the merge applies it (worker/process-revert-merge.ts).
import type { FoundPr } from "../../github/find-drift-pr.ts";
import type { DriftReport } from "../../model/types.ts";
import { keptLive } from "../../plan/revert/kept-live.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { revertDrift } from "./revert-drift.ts";

export interface RevertPlan {
  /** The revert share's report. */
  report: DriftReport;
  /** Fields the revert keeps live, by object key (keptLive), for the body. */
  kept: ReadonlyMap<string, string[]>;
  /** The open PR when the caller has looked it up already (the dashboard does, for the items it carries). */
  found?: { pr: FoundPr | undefined };
  /** A hidden line put first in the body (the dashboard's items, dashboard-ticks.ts). */
  hidden?: string;
}

export const revertHandler: ModeHandler<RevertPlan> = {
  plan: (share) => ({ report: share.scan.report, kept: keptLive(share.scan) }),
  act(plan, context) {
    const { octokit, owner, repo, base, target, config } = context;
    const { report, kept } = plan;
    return revertDrift({
      octokit,
      owner,
      repo,
      report,
      kept,
      cluster: target.cluster,
      base,
      pullRequests: config.pullRequests,
      ...(plan.found ? { found: plan.found } : {}),
      ...(plan.hidden !== undefined ? { hidden: plan.hidden } : {}),
    });
  },
};
