// Which drift a merged revert record still approves, object by object: an
// object is approved when the new scan finds it with exactly the status,
// paths and masked values the record lists (the same per-object fingerprint,
// computed again from both sides, so an edited record approves nothing it
// does not show). An approved orphan is offered to the prune, which still
// decides by the target's `prune` and every guard. Anything else is held back with why.

import { fingerprint } from "../drift/fingerprint.ts";
import { keyString, refKey } from "../model/object-key.ts";
import type { DriftReport } from "../model/types.ts";
import { type RevertRecord, type RevertRecordObject, revertRecord } from "./revert/revert-record.ts";

export interface HeldBack {
  object: RevertRecordObject;
  /** Why it is not applied, in a person's words. */
  reason: string;
  /** Drift the record does not show: reported, never applied unseen. */
  unseen: boolean;
}

export interface ApprovedDrift {
  /** `group/kind/namespace/name` of each object to apply (drifted or missing, as approved). */
  apply: Set<string>;
  /** The same keys of the orphans the record approved: prune candidates, nothing more. */
  prune: Set<string>;
  approved: RevertRecordObject[];
  held: HeldBack[];
  /** Objects the record listed whose drift is gone since: nothing to do. */
  settled: RevertRecordObject[];
}

/** The key planRevert's objects are matched by (keyString of objectKey). */
export function recordKey(o: Pick<RevertRecordObject, "apiVersion" | "kind" | "namespace" | "name">): string {
  return keyString(refKey(o));
}

export function approvedDrift(params: { record: RevertRecord; report: DriftReport; cluster: string }): ApprovedDrift {
  const now = new Map(
    revertRecord({ report: params.report, cluster: params.cluster }).objects.map((o) => [recordKey(o), o]),
  );
  const result: ApprovedDrift = { apply: new Set(), prune: new Set(), approved: [], held: [], settled: [] };
  const seen = new Set<string>();
  for (const approved of params.record.objects) {
    const key = recordKey(approved);
    seen.add(key);
    const current = now.get(key);
    if (!current) {
      result.settled.push(approved);
    } else if (fingerprint([current]) !== fingerprint([approved])) {
      result.held.push({
        object: current,
        reason: "its drift changed after the pull request was opened; not applied unseen",
        unseen: true,
      });
    } else {
      (current.status === "orphaned" ? result.prune : result.apply).add(key);
      result.approved.push(current);
    }
  }
  for (const [key, current] of now) {
    if (seen.has(key)) continue;
    result.held.push({
      object: current,
      reason:
        current.status === "orphaned"
          ? "became an orphan after the pull request was opened; not pruned unseen"
          : "appeared after the pull request was opened; not applied unseen",
      unseen: true,
    });
  }
  return result;
}
