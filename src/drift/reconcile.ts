// The drift engine as one pure pass, as gitops-engine's Reconcile: from the
// desired objects, the live objects a scan found for them, the comparisons
// (local, or as the server's dry-runs settled them) and the tracked objects,
// to the pairings the report, codify, revert and preview all read. The scan
// stage does the I/O around it (stages/scan/pair-objects.ts):
//   1. compareLocally: each desired object with a live one, compared with no server;
//   2. the stage confirms what the local pass could not settle by dry-run, and
//      gets new comparisons back (nothing is mutated);
//   3. reconcile: desired objects in their order, each with its comparison, then
//      the orphans among the tracked objects (never one a controller owns).

import { declaredKeyString, groupOf, keyString, objectKey } from "../model/object-key.ts";
import { leftAloneBy } from "../model/reconciler-annotations.ts";
import type { DesiredObject, KubeObject } from "../model/types.ts";
import type { Pairing } from "./build-report.ts";
import { type ComparePolicy, compareObject, type ObjectComparison } from "./compare-object.ts";
import { orphanPairings } from "./orphan-pairings.ts";

/** The live objects found for desired ones, by declaredKeyString; `unknown`: those that could not be read. */
export interface LiveFound {
  byDesired: ReadonlyMap<string, KubeObject>;
  unknown: ReadonlySet<string>;
}

/** Step 1: the local comparison of each desired object that has a live one, by declaredKeyString. */
export function compareLocally(params: {
  desired: readonly DesiredObject[];
  live: LiveFound;
  policy: ComparePolicy;
}): Map<string, ObjectComparison> {
  const comparisons = new Map<string, ObjectComparison>();
  for (const d of params.desired) {
    const key = declaredKeyString(d.object);
    const live = params.live.unknown.has(key) ? undefined : params.live.byDesired.get(key);
    if (!live) continue;
    // What the reconciler leaves alone (or only creates) is not compared: in sync, and no dry-run is sent.
    const settled = leftAloneBy(d.object, live) !== undefined;
    comparisons.set(
      key,
      settled
        ? { changes: [], needsDryRun: false, needsDefaults: false, live, wouldBe: live }
        : compareObject({ desired: d.object, live, group: groupOf(d.object.apiVersion), policy: params.policy }),
    );
  }
  return comparisons;
}

/** Whether only the server can settle a comparison: a dry-run apply, or a dry-run create for its defaults. */
export function needsConfirmation(comparison: ObjectComparison): boolean {
  return comparison.needsDryRun || comparison.needsDefaults;
}

/** Step 3: the findings, desired objects in their order (those that could not be read left out), then the orphans. */
export function reconcile(params: {
  desired: readonly DesiredObject[];
  live: LiveFound;
  /** Each paired object's comparison, local or as the dry-runs settled it, by declaredKeyString. */
  comparisons: ReadonlyMap<string, ObjectComparison>;
  /** Why the server refused a desired object as invalid, by declaredKeyString (Secret values redacted). */
  refusals?: ReadonlyMap<string, string>;
  /** The tracked live objects by keyString (in full where the report shows them): the orphans are among them. */
  tracked: Map<string, KubeObject>;
}): Pairing[] {
  const pairings: Pairing[] = [];
  for (const d of params.desired) {
    const key = declaredKeyString(d.object);
    if (params.live.unknown.has(key)) continue;
    const live = params.live.byDesired.get(key);
    const leftAlone = leftAloneBy(d.object, live);
    if (!live) {
      pairings.push({ desired: d, ...(leftAlone ? { leftAlone } : {}) });
      continue;
    }
    const comparison = params.comparisons.get(key);
    // compareLocally compares every desired object that has a live one: a caller that skipped it has a bug.
    if (!comparison) throw new RangeError(`reconcile: no comparison for ${key}`);
    const refused = params.refusals?.get(key);
    pairings.push({
      desired: d,
      live,
      comparison,
      ...(refused !== undefined ? { refused } : {}),
      ...(leftAlone ? { leftAlone } : {}),
    });
  }
  const declared = new Set(params.desired.map((d) => keyString(objectKey(d.object))));
  pairings.push(...orphanPairings({ tracked: params.tracked, declared }));
  return pairings;
}
