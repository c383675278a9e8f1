// The target's live objects head no longer declares go through the same prune
// decision the heal makes (rules, then the target's `prune`, then planPrune's
// guards), so "would be deleted" is what would really happen.
import type { TargetConfig } from "../../config/schema.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import { type PrunePreview, pruneAction } from "../../model/preview-report.ts";
import { refOf } from "../../model/ref-of.ts";
import { planTargetPrune } from "../../plan/prune/plan-target-prune.ts";
import type { ScanResult } from "../scan/scan-target.ts";

/** The target's live objects head no longer declares, with what the merge does to each. */
export function prunePreview(scan: ScanResult, target: TargetConfig): PrunePreview[] {
  const orphans = scan.pairings.flatMap((p) => (!p.desired && p.live ? [p.live] : []));
  const desired = scan.desired.map((d) => d.object);
  const plan = planTargetPrune({ orphans, desired, target, skippedDocuments: scan.skipped });
  return [
    ...plan.deletions.map((o): PrunePreview => ({ ...refOf(o), action: pruneAction({ action: "deleted" }) })),
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
