// Desired and live objects paired by key, each pair compared: a local pass
// first (an object it finds in sync costs nothing more), then a server-side
// dry-run of the candidates it could not settle, then the tracked objects Git
// no longer declares, as pairs without a desired side (never one a controller owns).
import type { TargetConfig } from "../../config/schema.ts";
import type { Pairing } from "../../drift/build-report.ts";
import { type ComparePolicy, compareObject } from "../../drift/compare-object.ts";
import { orphanPairings } from "../../drift/orphan-pairings.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { completeObjects, type LiveState, type Tracked } from "../../live/fetch-live.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { declaredKeyString, groupOf, keyString, objectKey } from "../../model/object-key.ts";
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
  const { desired, live, session, index, target, policy, problems } = params;
  const pairings: Pairing[] = [];
  const toConfirm: Pairing[] = [];
  for (const d of desired) {
    const key = declaredKeyString(d.object);
    if (live.unknown.has(key)) continue;
    const object = live.byDesired.get(key);
    if (!object) {
      pairings.push({ desired: d });
      continue;
    }
    const group = groupOf(d.object.apiVersion);
    const comparison = compareObject({ desired: d.object, live: object, group, policy });
    const pairing: Pairing = { desired: d, live: object, comparison };
    pairings.push(pairing);
    if (comparison.needsDryRun || comparison.needsDefaults) toConfirm.push(pairing);
  }
  let dryRuns = 0;
  let dryRunsReused = 0;
  await mapLimit(toConfirm, 8, async (pairing) => {
    const result = await confirmDrift({ pairing, session, index, fieldManager: target.fieldManager, policy, problems });
    dryRuns += result.dryRuns;
    dryRunsReused += result.reused;
  });

  const declared = new Set(desired.map((d) => keyString(objectKey(d.object))));
  // Controller-owned objects (a Deployment's ReplicaSets) are never orphans: see orphan-pairings.ts.
  // The orphans among kinds listed by metadata are read in full (the report shows them), and so is each
  // StatefulSet, whose volumeClaimTemplates tell its claims from orphans.
  const { tracked } = params;
  const candidates = orphanPairings({ tracked: tracked.objects, declared }).map((p) => keyString(objectKey(p.live!)));
  const sets = [...tracked.partial].filter((key) => tracked.objects.get(key)?.kind === "StatefulSet");
  await completeObjects({ client: session.client, index, tracked, keys: [...sets, ...candidates] });
  pairings.push(...orphanPairings({ tracked: tracked.objects, declared }));
  return { pairings, dryRuns, dryRunsReused };
}
