// Which orphans a prune deletes, and why it refuses each one it does not. Pure:
// it decides on the objects as the scan read them; the prune then checks each
// is still that object (uid, resourceVersion) before deleting it.
// An orphan the scan read already marked for deletion (a deletionTimestamp: a finalizer holds it) is going
// whatever prune decides: it is set aside as `deleting`, not deleted again and not counted in the share.
// Guards, strongest first (the first that holds is the reason given):
//   1. prune was asked for (--prune);
//   2. the tracking selector names the target's objects (has a k=v or k requirement);
//   3. the render skipped no document: a typo (`metdata:`) drops the document that
//      declares an object, which then looks like an orphan; never overridden, not even by --force-prune;
//   4. the render is not empty: an empty render looks like "delete everything";
//   5. no other target of the repository declares the object (tracking selectors can overlap): never overridden;
//   6. the object carries the tracking label;
//   7. it is not opted out (labels, annotations, or a rule of the target with prune false or preview);
//   8. it is not in use by the target (a Namespace its objects live in, a CRD of its custom resources);
//   9. Namespaces and CRDs only with --force-prune: deleting one deletes everything in it;
//  10. every other target rendered, so what they declare is known: never overridden;
//  11. at most maxPrunePercent of the tracked objects (desired + orphans) at once, unless --force-prune.
//      Objects another target declares are not this target's, so they are not counted in its share either.
//      Objects a controller owns (a Deployment's ReplicaSets) are neither orphans nor counted here:
//      the scan leaves them out (drift/orphan-pairings.ts), and so does the planner, so a label on pod templates
//      cannot dilute the share, and no caller can have one deleted.

import { matchesSelector } from "../../config/matches-selector.ts";
import { hasPositiveTerm, parseLabelSelector } from "../../config/parse-label-selector.ts";
import type { ObjectRule } from "../../config/schema.ts";
import type { SkippedDocument } from "../../desired/extract-objects.ts";
import { controllerOf } from "../../drift/orphan-pairings.ts";
import type { ObjectRecord, PruneGuard } from "../../model/change-set.ts";
import { kindKeyOf } from "../../model/object-key.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import { applyStage, definedKind, isCustomResourceDefinition, isNamespace } from "../revert/apply-stage.ts";
import { objectRulePrune } from "./object-rule-prune.ts";
import { declaredBy, declaredReason, type OtherTargets, unknownReason } from "./other-targets.ts";
import { pendingReason } from "./pending-reason.ts";
import { pruneOptOut } from "./prune-opt-out.ts";

export interface PrunePlan {
  /** Orphans to delete, dependents before what they live in (reverse apply order). */
  deletions: KubeObject[];
  /** Orphans left alone, each with its guard and reason. */
  skipped: ObjectRecord[];
  /** Orphans already being deleted (held by a finalizer): not deleted again, reported `deleting` with what holds them. */
  deleting: ObjectRecord[];
}

export function planPrune(params: {
  orphans: KubeObject[];
  desired: KubeObject[];
  selector: string;
  requested: boolean;
  force: boolean;
  maxPrunePercent: number;
  rules: ObjectRule[];
  /** Documents the render skipped (or could not read): while there is one, nothing is pruned. */
  skippedDocuments: readonly SkippedDocument[];
  /** What the repository's other targets declare: none of it is deleted, and while one is unknown nothing is. */
  otherTargets: OtherTargets;
}): PrunePlan {
  const { desired, selector } = params;
  // The scan leaves objects a controller owns out already (drift/orphan-pairings.ts); the planner does not rely
  // on every caller having done so: such an object is no orphan, never deleted, reported or counted.
  const orphans = params.orphans.filter((o) => !controllerOf(o));
  const skipped: ObjectRecord[] = [];
  const skip = (object: KubeObject, guard: PruneGuard, reason: string) =>
    skipped.push({ ...refOf(object), action: "skipped", guard, reason });
  const deleting: ObjectRecord[] = [];
  const skipAll = (guard: PruneGuard, reason: string): PrunePlan => {
    for (const o of orphans) skip(o, guard, reason);
    return { deletions: [], skipped, deleting };
  };

  if (!params.requested) return skipAll("not-requested", "prune not requested");
  const requirements = parseLabelSelector(selector);
  if (!hasPositiveTerm(requirements)) {
    return skipAll("selector", `the tracking selector "${selector}" names no label the target's objects carry`);
  }
  const firstSkipped = params.skippedDocuments[0];
  if (firstSkipped) return skipAll("skipped-documents", skippedReason(firstSkipped, params.skippedDocuments.length));
  if (desired.length === 0) {
    return skipAll("empty-render", "the target rendered no objects, and an empty render never prunes");
  }

  const context: OrphanContext = {
    ...params,
    requirements,
    namespacesInUse: new Set(desired.map((o) => o.metadata.namespace).filter(Boolean)),
    kindsInUse: new Set(desired.map(kindKeyOf)),
  };
  const candidates: KubeObject[] = [];
  // Orphans being deleted or declared by another target are not the target's to count in maxPrunePercent.
  let notCounted = 0;
  for (const object of orphans) {
    const verdict = judgeOrphan(object, context);
    if (!verdict) candidates.push(object);
    else if ("deleting" in verdict) {
      notCounted += 1;
      deleting.push({ ...refOf(object), action: "deleting", reason: verdict.deleting });
    } else {
      if (verdict.guard === "declared-elsewhere") notCounted += 1;
      skip(object, verdict.guard, verdict.reason);
    }
  }

  if (candidates.length > 0 && params.otherTargets.unknown.length > 0) {
    const reason = unknownReason(params.otherTargets.unknown);
    for (const object of candidates) skip(object, "others-unknown", reason);
    return { deletions: [], skipped, deleting };
  }
  const tracked = desired.length + orphans.length - notCounted;
  const percent = (candidates.length / tracked) * 100;
  if (!params.force && percent > params.maxPrunePercent) {
    const share = `${candidates.length} of ${tracked} tracked objects (${Math.round(percent)}%)`;
    const reason = `pruning ${share} is more than maxPrunePercent ${params.maxPrunePercent}%; --force-prune prunes them anyway`;
    for (const object of candidates) skip(object, "max-percent", reason);
    return { deletions: [], skipped, deleting };
  }
  // Namespaced objects first, Namespaces and CRDs last: what holds other objects goes after them.
  const deletions = candidates
    .map((object, order) => ({ object, order }))
    .sort((a, b) => applyStage(b.object) - applyStage(a.object) || a.order - b.order)
    .map((c) => c.object);
  return { deletions, skipped, deleting };
}

type PlanPruneParams = Parameters<typeof planPrune>[0];

interface OrphanContext extends PlanPruneParams {
  requirements: ReturnType<typeof parseLabelSelector>;
  namespacesInUse: Set<string | undefined>;
  kindsInUse: Set<string>;
}

/**
 * One orphan's guards, in order: being deleted already, declared by another target, untracked, opted out (by an
 * annotation or a rule), in use, or a kind that needs --force-prune. Undefined: the orphan may be pruned.
 */
function judgeOrphan(
  object: KubeObject,
  context: OrphanContext,
): { deleting: string } | { guard: PruneGuard; reason: string } | undefined {
  if (object.metadata.deletionTimestamp) return { deleting: pendingReason(object, { already: true }) };
  const declarers = declaredBy(context.otherTargets, object);
  if (declarers.length > 0) return { guard: "declared-elsewhere", reason: declaredReason(declarers) };
  if (!matchesSelector(object.metadata.labels, context.requirements)) {
    return { guard: "untracked", reason: `it does not carry the tracking label (${context.selector})` };
  }
  const optOut = pruneOptOut(object);
  if (optOut) return { guard: "opted-out", reason: `opted out by ${optOut}` };
  const rule = objectRulePrune(context.rules, object);
  if (rule && rule.prune !== true) {
    return { guard: "opted-out", reason: `opted out by rules[${rule.index}] of the target (prune: ${rule.prune})` };
  }
  if (isNamespace(object) && context.namespacesInUse.has(object.metadata.name)) {
    return { guard: "in-use", reason: "objects of this target live in this Namespace" };
  }
  if (isCustomResourceDefinition(object) && context.kindsInUse.has(definedKind(object) ?? "")) {
    return { guard: "in-use", reason: "custom resources of this target are of the kind it defines" };
  }
  if (!context.force && (isNamespace(object) || isCustomResourceDefinition(object))) {
    const what = isNamespace(object) ? "everything in it" : "every resource of its kind";
    return { guard: "kind", reason: `a ${object.kind} is pruned only with --force-prune: deleting it deletes ${what}` };
  }
  return undefined;
}

/** Why a skipped document holds every prune back, naming the first one. */
function skippedReason(first: SkippedDocument & { line?: number }, count: number): string {
  const where = first.line ? `${first.file}:${first.line}` : `${first.file} document ${first.document + 1}`;
  const more = count > 1 ? ` and ${count - 1} more document${count > 2 ? "s" : ""}` : "";
  return `the render skipped ${where}${more} (${first.reason}); a target with a skipped document never prunes, as the object it should declare would look like an orphan`;
}
