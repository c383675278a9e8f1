// A target's own prune setting over its orphans: each orphan's setting is the
// first matching rule's, else the target's `prune`. Orphans set to true go
// through planPrune's guards; the others are listed, never deleted (preview
// lists them on purpose, false leaves them running untracked). The app's heal
// and the PR preview decide the same way, so a preview says what a heal would do.
import type { TargetConfig } from "../../config/schema.ts";
import type { SkippedDocument } from "../../desired/extract-objects.ts";
import { controllerOf } from "../../drift/orphan-pairings.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import { objectRulePrune } from "./object-rule-prune.ts";
import type { OtherTargets } from "./other-targets.ts";
import { type PrunePlan, planPrune } from "./plan-prune.ts";

/** Whether any orphan's setting is true, so the prune will judge it (and needs the other targets' objects). */
export function asksPrune(target: TargetConfig, orphans: KubeObject[]): boolean {
  return orphans.some((o) => !controllerOf(o) && (objectRulePrune(target.rules, o)?.prune ?? target.prune) === true);
}

export function planTargetPrune(params: {
  orphans: KubeObject[];
  desired: KubeObject[];
  target: TargetConfig;
  /** Documents the render skipped: while there is one, nothing is pruned. */
  skippedDocuments: readonly SkippedDocument[];
  /** What the repository's other targets declare: never pruned. */
  otherTargets: OtherTargets;
}): PrunePlan {
  const { target } = params;
  const settingOf = (o: KubeObject) => objectRulePrune(target.rules, o)?.prune ?? target.prune;
  // As in planPrune: an object a controller owns is no orphan, not even one to list.
  const orphans = params.orphans.filter((o) => !controllerOf(o));
  const asked = orphans.filter((o) => settingOf(o) === true);
  const listed: ObjectRecord[] = orphans
    .filter((o) => settingOf(o) !== true)
    .map((o) => ({
      ...refOf(o),
      action: "skipped",
      guard: "not-requested",
      reason: settingOf(o) === "preview" ? "prune is preview: listed only" : "prune is off: listed only",
    }));
  if (asked.length === 0) return { deletions: [], skipped: listed, deleting: [] };
  const plan = planPrune({
    orphans: asked,
    desired: params.desired,
    selector: target.tracking.selector,
    requested: true,
    force: false,
    maxPrunePercent: target.maxPrunePercent,
    rules: target.rules,
    skippedDocuments: params.skippedDocuments,
    otherTargets: params.otherTargets,
  });
  return { deletions: plan.deletions, skipped: [...plan.skipped, ...listed], deleting: plan.deleting };
}
