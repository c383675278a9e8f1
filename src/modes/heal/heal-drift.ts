// The heal side of a scan: drifted and missing objects get Git applied at once,
// through the CLI's revert (planRevert + applyPlan; fields people changed by
// hand pass to undrift first), then the target's tracking issue says what was
// healed: which object, which fields, who had changed them.
// A field a non-human manager keeps changing back is a fight (heal-fights.ts):
// after K heals within the window it is no longer healed (an object whose only
// drift is such fields is not applied; other objects are), and undrift opens
// the target's ignore pull request with the rule that ends the fight
// (ignore-fight.ts); the issue links to it.
// Orphans are pruned when the target's prune (or the first matching rule's)
// is true, through the CLI's planPrune + pruneOrphans with all their guards;
// with preview or false they are only listed. The issue says which were
// deleted and which were not, and why.
//   1. what to apply, less the fought fields (plan-heal.ts); a fight's ignore PR,
//      proposed before the apply so its proof scans the cluster as this scan saw it
//   2. the apply, as `undrift revert` does it
//   3. the heals counted towards fights (count-heals.ts)
//   4. the orphans pruned where prune is true
//   5. what the scan audits (heal-mode-result.ts), and the sections the tracking
//      issue puts above its report (heal-handler.ts has warn file the issue)
import type { TargetConfig } from "../../config/schema.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { respectedIgnoreRules } from "../../plan/revert/respect-ignored.ts";
import { applyPlan } from "../../remediate/revert/apply-plan.ts";
import { type FoughtObject, healSections, pruneSections } from "../../report/app/heal-sections.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { IgnoreOutcome } from "../ignore/ignore-outcome.ts";
import type { ModeDeps } from "../mode-deps.ts";
import type { ModeResult } from "../mode-result.ts";
import { pruneTargetOrphans } from "../prune-target-orphans.ts";
import { countHeals } from "./count-heals.ts";
import { healModeResult } from "./heal-mode-result.ts";
import { planHeal } from "./plan-heal.ts";
import { watchHealFights } from "./watch-heal-fights.ts";

/** What heal did (audit events, check run lines) and the sections the tracking issue shows about it. */
export async function healDrift(params: {
  deps: ModeDeps;
  owner: string;
  repo: string;
  /** The heal share of the scan (mode-shares.ts): only its objects are applied and pruned. */
  scan: ScanResult;
  /** The client of the session the scan ran on: heal applies and prunes through it. */
  client: KubeClient;
  target: TargetConfig;
  /** Opens or updates the ignore pull request that ends these fights (ignore-fight.ts); none: only the rule is shown. */
  ignoreFights?: (fought: FoughtObject[]) => Promise<IgnoreOutcome>;
}): Promise<ModeResult & { sections: string[] }> {
  const { deps, scan, target } = params;
  const { policy } = scan;
  const watch = watchHealFights({ deps, repo: `${params.owner}/${params.repo}`, scan, target });

  // 1. What to apply: drifted and missing objects, less the fields healing has stopped for.
  const { plan, objects, fought } = await planHeal({ scan, watch });
  const ignore = fought.length > 0 ? await params.ignoreFights?.(fought) : undefined;

  // 2. The apply, as `undrift revert` does it.
  const { entries } = objects.length
    ? await applyPlan({
        client: params.client,
        index: scan.index,
        objects,
        fieldManager: target.fieldManager,
        force: target.force,
        isHuman: (manager) => policy.isHuman(manager),
        dryRun: false,
        wait: "dependencies",
        deadline: Date.now() + target.timeoutMs,
        ignoreRules: respectedIgnoreRules(target),
        jq: policy.jq,
      })
    : { entries: [] };

  // 3. Each heal of a field a program had changed counts towards a fight.
  const healed = await countHeals({ entries, watch });

  // 4. Orphans: deleted only when prune is true for them, and every guard lets them go.
  const pruned = await pruneTargetOrphans({
    client: params.client,
    index: scan.index,
    target,
    repoDir: scan.repoDir,
    config: scan.config,
    desired: scan.desired.map((d) => d.object),
    skippedDocuments: scan.skipped,
    orphans: plan.orphans,
  });

  // 5. What was healed, pruned, and what no longer is: for the scan's audit and check run, and the tracking issue.
  const sections = [
    ...healSections({ healed, fought, policy: watch.policy, ...(ignore ? { ignore } : {}) }),
    ...pruneSections(pruned),
  ];
  const { done, lines } = healModeResult({ healed, fought, pruned, ...(ignore ? { ignore } : {}) });
  return { done, lines, sections };
}
