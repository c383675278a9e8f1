// Heal: Git applied to the share's drifted and missing objects, its orphans
// pruned where prune is true (heal-drift.ts), then the tracking issue filed by
// warn's act with what heal did above the report: the warn and heal shares
// joined, so warn does nothing of its own when heal is there (warn-handler.ts).
// What to apply is worked out in act: it reads the fight counts in Redis
// (plan-heal.ts), so the plan is the share and what the issue reports.
import type { DriftReport } from "../../model/types.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { ModeHandler } from "../mode-handler.ts";
import { warnHandler } from "../warn/warn-handler.ts";
import { healDrift } from "./heal-drift.ts";

export interface HealPlan {
  /** The heal share of the scan: only its objects are applied and pruned. */
  scan: ScanResult;
  /** What the tracking issue reports: the heal share with the warn share beside it; default the share's report. */
  issueReport: DriftReport;
}

export const healHandler: ModeHandler<HealPlan> = {
  plan: (share, context) => ({ scan: share.scan, issueReport: context.issueReport ?? share.scan.report }),
  async act(plan, context) {
    const { deps, owner, repo, target, ignoreFights, client } = context;
    const { scan } = plan;
    const healed = await healDrift({
      deps,
      owner,
      repo,
      scan,
      client,
      target,
      ...(ignoreFights ? { ignoreFights } : {}),
    });
    // 5. The tracking issue, with what was healed, pruned, and what no longer is.
    const issue = await warnHandler.act(
      { report: plan.issueReport, sections: healed.sections, renderer: scan.renderer },
      context,
    );
    return { done: [...healed.done, ...issue.done], lines: [...healed.lines, ...issue.lines] };
  },
};
