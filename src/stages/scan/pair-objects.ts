// The scan's pairing, the I/O around the pure engine (drift/reconcile.ts): the
// local comparisons first (an object they find in sync costs nothing more),
// then a server-side dry-run of the candidates they could not settle, each
// returning its new comparison, then the tracked objects Git no longer declares
// read in full where the report shows them, and the findings reconciled.
import type { TargetConfig } from "../../config/schema.ts";
import type { Pairing } from "../../drift/build-report.ts";
import type { ComparePolicy, ObjectComparison } from "../../drift/compare-object.ts";
import { orphanPairings } from "../../drift/orphan-pairings.ts";
import { compareLocally, needsConfirmation, reconcile } from "../../drift/reconcile.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { completeObjects, type LiveState, type Tracked } from "../../live/fetch-live.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { declaredKeyString, keyString, objectKey } from "../../model/object-key.ts";
import type { DesiredObject, ScanProblem } from "../../model/types.ts";
import { confirmDrift } from "./confirm-drift.ts";

export async function pairObjects(params: {
  desired: DesiredObject[];
  live: LiveState;
  tracked: Tracked;
  session: ClusterSession;
  index: ResourceIndex;
  target: TargetConfig;
  policy: ComparePolicy;
  /** Where a candidate that could not be confirmed is told. */
  problems: ScanProblem[];
}): Promise<{ pairings: Pairing[]; dryRuns: number; dryRunsReused: number }> {
  const { desired, live, session, index, target, policy, tracked } = params;
  // 1. Local comparisons; 2. the dry-runs of those only the server can settle, each a new comparison.
  const local = compareLocally({ desired, live, policy });
  const comparisons = new Map<string, ObjectComparison>(local);
  const refusals = new Map<string, string>();
  const toConfirm = desired.filter((d) => {
    const comparison = local.get(declaredKeyString(d.object));
    return comparison !== undefined && needsConfirmation(comparison);
  });
  let dryRuns = 0;
  let dryRunsReused = 0;
  await mapLimit(toConfirm, 8, async (d) => {
    const key = declaredKeyString(d.object);
    const found = await confirmDrift({
      desired: d.object,
      sensitive: d.sensitive,
      live: live.byDesired.get(key)!,
      comparison: local.get(key)!,
      session,
      index,
      fieldManager: target.fieldManager,
      policy,
    });
    comparisons.set(key, found.comparison);
    if (found.refused !== undefined) refusals.set(key, found.refused);
    params.problems.push(...found.problems);
    dryRuns += found.dryRuns;
    dryRunsReused += found.reused;
  });

  // Controller-owned objects (a Deployment's ReplicaSets) are never orphans: see orphan-pairings.ts.
  // The orphans among kinds listed by metadata are read in full (the report shows them), and so is each
  // StatefulSet, whose volumeClaimTemplates tell its claims from orphans.
  const declared = new Set(desired.map((d) => keyString(objectKey(d.object))));
  const candidates = orphanPairings({ tracked: tracked.objects, declared }).map((p) => keyString(objectKey(p.live!)));
  const sets = [...tracked.partial].filter((key) => tracked.objects.get(key)?.kind === "StatefulSet");
  await completeObjects({ client: session.client, index, tracked, keys: [...sets, ...candidates] });

  // 3. The findings.
  const pairings = reconcile({ desired, live, comparisons, refusals, tracked: tracked.objects });
  return { pairings, dryRuns, dryRunsReused };
}
