// The body of the one comment undrift leaves on a merged revert pull request:
// what was applied (with each object's health), which orphans were pruned,
// what was held back or left unpruned and why. github/revert-merge-comment.ts
// posts it, or edits the one it posted before.

import { isDeletion, type ObjectRecord } from "../../model/change-set.ts";
import { objectLabel } from "../../model/object-label.ts";
import type { DriftReport } from "../../model/types.ts";
import type { HeldBack } from "../../plan/approved-drift.ts";
import { peopleOf } from "../describe-actor.ts";

export interface RevertMergeOutcome {
  target: string;
  cluster: string;
  revision: string;
  /** One record per approved object the apply went through. */
  applied: ObjectRecord[];
  /** One record per approved orphan: deleted, or skipped (or failed) with the reason. */
  pruned: ObjectRecord[];
  held: HeldBack[];
  /** Objects the record listed that match Git by now. */
  settled: string[];
  /** Why nothing at all was applied (no record, a moved target), when that is so. */
  refused?: string;
  /**
   * Who made the drift this merge reverts, by object label (`v1 ConfigMap shop/settings`), from the cluster's
   * records of writes (driftPeople); an object nobody is known for has no entry.
   */
  people?: Record<string, string>;
  /**
   * The target's reconciler was asked to reconcile instead of undrift applying behind its back: which object,
   * the annotation and value written, and the approved objects it is expected to put back.
   */
  handedOff?: { reconciler: string; annotation: string; value: string; objects: string[] };
}

/** `changed by alice (sre), bob (dev)`, or `deleted by bob (dev)`, for each object of `report` a record names. */
export function driftPeople(report: DriftReport): Record<string, string> {
  const people: Record<string, string> = {};
  for (const resource of report.resources) {
    const names = peopleOf(resource);
    if (names.length === 0) continue;
    people[objectLabel(resource)] = `${resource.deletedBy ? "deleted" : "changed"} by ${names.join(", ")}`;
  }
  return people;
}

const applied = (r: ObjectRecord) => r.action === "created" || r.action === "configured" || r.action === "unchanged";

/** A heading line, a blank line and one line per item; no section when there are no items and no fallback. */
function section(heading: string, items: string[], empty?: string): string[] {
  if (items.length === 0 && empty === undefined) return [];
  return [[heading, "", ...(items.length > 0 ? items : [empty])].join("\n")];
}

function healthNote(r: ObjectRecord): string {
  return r.health ? `; health: ${r.health.status}${r.health.message ? ` (${r.health.message})` : ""}` : "";
}

function appliedLine(r: ObjectRecord, people: Record<string, string>): string {
  const changes = r.changes?.length ? ` ${r.changes.map((c) => `\`${c}\``).join(", ")}` : "";
  const who = people[objectLabel(r)];
  return `- \`${objectLabel(r)}\`: ${r.action}${changes}${who ? `; ${who}` : ""}${healthNote(r)}`;
}

function healthLine(failed: number, unhealthy: number): string {
  if (failed > 0) return `**Health:** ${failed} object(s) not applied.`;
  if (unhealthy > 0) return `**Health:** ${unhealthy} applied object(s) not healthy yet.`;
  return "**Health:** every applied object is healthy.";
}

export function revertMergeComment(outcome: RevertMergeOutcome): string {
  const at = `cluster \`${outcome.cluster}\`, target \`${outcome.target}\`, revision \`${outcome.revision.slice(0, 12)}\``;
  if (outcome.refused) return `**Nothing was applied** (${at}): ${outcome.refused}`;
  if (outcome.handedOff) return handedOffComment(outcome, outcome.handedOff, at);
  const ok = outcome.applied.filter(applied);
  const failed = outcome.applied.filter((r) => !applied(r));
  const deleted = outcome.pruned.filter(isDeletion);
  const kept = outcome.pruned.filter((r) => !isDeletion(r));
  const unhealthy = outcome.applied.filter((r) => r.health && r.health.status !== "healthy");
  return [
    `undrift applied this pull request's record (${at}).`,
    ...section(
      "**Applied**",
      ok.map((r) => appliedLine(r, outcome.people ?? {})),
      "- nothing",
    ),
    ...section(
      "**Not applied** (refused or skipped by the cluster)",
      failed.map((r) => `- \`${objectLabel(r)}\`: ${r.action}${r.reason ? `: ${r.reason}` : ""}`),
    ),
    ...section(
      "**Pruned** (orphans this pull request approved)",
      deleted.map((r) => `- \`${objectLabel(r)}\`: ${r.action}${r.reason ? ` (${r.reason})` : ""}`),
    ),
    ...section("**Skipped**", [
      ...outcome.held.map((h) => {
        const who = outcome.people?.[objectLabel(h.object)];
        return `- \`${objectLabel(h.object)}\` (${h.object.status}): ${h.reason}${who ? ` (${who})` : ""}`;
      }),
      ...kept.map((r) => `- \`${objectLabel(r)}\` (orphaned): not pruned: ${r.reason ?? r.action}`),
    ]),
    ...section(
      "**Already in sync** (nothing to apply)",
      outcome.settled.map((label) => `- \`${label}\``),
    ),
    healthLine(failed.length, unhealthy.length),
    ...(outcome.held.some((h) => h.unseen)
      ? ["The skipped drift stays for the next scan, which proposes it in a new pull request."]
      : []),
  ].join("\n\n");
}

/** A merge handed to the target's reconciler: what was asked of whom, and what it is expected to put back. */
function handedOffComment(
  outcome: RevertMergeOutcome,
  handedOff: NonNullable<RevertMergeOutcome["handedOff"]>,
  at: string,
): string {
  const people = outcome.people ?? {};
  return [
    `undrift asked ${handedOff.reconciler} to reconcile now (\`${handedOff.annotation}: ${handedOff.value}\`) instead of applying this pull request's record behind its back (${at}). It re-applies Git, which puts back what the record approved; the next scan says whether the drift is gone.`,
    ...section(
      "**Approved** (for the reconciler to put back)",
      handedOff.objects.map((label) => `- \`${label}\`${people[label] ? `; ${people[label]}` : ""}`),
      "- nothing",
    ),
    ...section(
      "**Skipped**",
      outcome.held.map((h) => `- \`${objectLabel(h.object)}\` (${h.object.status}): ${h.reason}`),
    ),
    ...section(
      "**Already in sync** (nothing to apply)",
      outcome.settled.map((label) => `- \`${label}\``),
    ),
  ].join("\n\n");
}
