// Revert: the share's drift becomes the target's revert pull request with its
// record file (revert-drift.ts); the merge applies it (worker/process-revert-merge.ts).
import type { DriftReport } from "../../model/types.ts";
import { keptLive } from "../../plan/revert/kept-live.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { revertDrift } from "./revert-drift.ts";

export interface RevertPlan {
  /** The revert share's report. */
  report: DriftReport;
  /** Fields the revert keeps live, by object key (keptLive), for the body. */
  kept: ReadonlyMap<string, string[]>;
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
    });
  },
};
