// Codify: the share's drift becomes the target's codify pull request
// (codify-drift.ts). The edits are worked out in act: they read the snapshot's
// files (codifyScan), so the plan is the share itself.
import type { FoundPr } from "../../github/find-drift-pr.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { codifyDrift } from "./codify-drift.ts";

export interface CodifyPlan {
  /** The codify share of the scan (the dashboard's: the items ticked for codify and those its PR carries). */
  scan: ScanResult;
  /** The open PR when the caller has looked it up already (the dashboard does, for the items it carries). */
  found?: { pr: FoundPr | undefined };
  /** A hidden line put first in the body (the dashboard's items, dashboard-ticks.ts). */
  hidden?: string;
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
      ...(plan.found ? { found: plan.found } : {}),
      ...(plan.hidden !== undefined ? { hidden: plan.hidden } : {}),
    });
  },
};
