// Codify: the share's drift becomes the target's codify pull request
// (codify-drift.ts). The edits are worked out in act: they read the snapshot's
// files (codifyScan), so the plan is the share itself.
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { codifyDrift } from "./codify-drift.ts";

export interface CodifyPlan {
  /** The codify share of the scan. */
  scan: ScanResult;
}

export const codifyHandler: ModeHandler<CodifyPlan> = {
  plan: (share) => ({ scan: share.scan }),
  act(plan, context) {
    const { octokit, owner, repo, repoDir, base, target, config } = context;
    const cluster = target.cluster;
    return codifyDrift({
      octokit,
      owner,
      repo,
      scan: plan.scan,
      repoDir,
      cluster,
      base,
      pullRequests: config.pullRequests,
    });
  },
};
