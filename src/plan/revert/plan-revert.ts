// What a revert does with each object the scan saw, pure: drifted objects are
// configured, missing ones created, in-sync ones left untouched (so their
// resourceVersion stays), and orphans go to prune. Desired objects come out in
// dependency order (stable within a stage, so render order breaks ties).

import { findingOf, type Pairing } from "../../drift/build-report.ts";
import { keyString, objectKey } from "../../model/object-key.ts";
import type { DeclaredStatus, DesiredObject, KubeObject } from "../../model/types.ts";
import { type ApplyStage, applyStage } from "./apply-stage.ts";

export interface PlannedObject {
  desired: DesiredObject;
  /** The live object as the scan read it. */
  live?: KubeObject;
  /** `not-compared`: the scan could not read it (its problems say why), so it is not applied blind. */
  status: DeclaredStatus | "not-compared";
  /** JSON pointers of the drifted fields. */
  changes: string[];
  stage: ApplyStage;
}

export interface RevertPlan {
  objects: PlannedObject[];
  orphans: KubeObject[];
}

export function planRevert(params: { desired: DesiredObject[]; pairings: Pairing[] }): RevertPlan {
  const byKey = new Map<string, Pairing>();
  const orphans: KubeObject[] = [];
  for (const p of params.pairings) {
    if (p.desired) byKey.set(keyString(objectKey(p.desired.object)), p);
    else if (p.live) orphans.push(p.live);
  }
  const objects = params.desired.map((desired): PlannedObject => {
    const stage = applyStage(desired.object);
    const pairing = byKey.get(keyString(objectKey(desired.object)));
    if (!pairing) return { desired, status: "not-compared", changes: [], stage };
    const status = findingOf(pairing) as DeclaredStatus; // paired by a desired object's key: never orphaned
    if (status === "missing") return { desired, status, changes: [], stage };
    const changes = (pairing.comparison?.changes ?? []).map((c) => c.path);
    return { desired, live: pairing.live, status, changes, stage };
  });
  const ordered = objects.map((o, order) => ({ o, order })).sort((a, b) => a.o.stage - b.o.stage || a.order - b.order);
  return { objects: ordered.map(({ o }) => o), orphans };
}
