// The target's live objects head no longer declares go through the same prune
// decision the heal makes (rules, then the target's `prune`, then planPrune's
// guards, with what the repository's other targets declare at head), so "would
// be deleted" is what would really happen, and an object another target
// declares is listed as kept, naming that target.
import type { TargetConfig } from "../../config/schema.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import { type PrunePreview, pruneAction } from "../../model/preview-report.ts";
import { refOf } from "../../model/ref-of.ts";
import { noOtherTargets } from "../../plan/prune/other-targets.ts";
import { asksPrune, planTargetPrune } from "../../plan/prune/plan-target-prune.ts";
import { otherTargetsOf } from "../scan/other-targets-of.ts";
import type { ScanResult } from "../scan/scan-target.ts";

/** The target's live objects head no longer declares, with what the merge does to each. */
export async function prunePreview(scan: ScanResult, target: TargetConfig): Promise<PrunePreview[]> {
  const orphans = scan.pairings.flatMap((p) => (!p.desired && p.live ? [p.live] : []));
  const desired = scan.desired.map((d) => d.object);
  const otherTargets = asksPrune(target, orphans)
    ? await otherTargetsOf({ repoDir: scan.repoDir, config: scan.config, target, index: scan.index })
    : noOtherTargets;
  const plan = planTargetPrune({ orphans, desired, target, skippedDocuments: scan.skipped, otherTargets });
  return [
    ...plan.deletions.map((o): PrunePreview => ({ ...refOf(o), action: pruneAction({ action: "deleted" }) })),
    ...plan.deleting.map(pruneEntry),
    ...plan.skipped.map(pruneEntry),
  ];
}

function pruneEntry(record: ObjectRecord): PrunePreview {
  const { apiVersion, kind, namespace, name, guard, reason } = record;
  const action = pruneAction(record);
  return {
    apiVersion,
    kind,
    ...(namespace ? { namespace } : {}),
    name,
    action,
    ...(guard ? { guard } : {}),
    ...(reason ? { reason } : {}),
  };
}
