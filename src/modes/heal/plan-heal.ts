// What heal applies: drifted and missing objects, less the fields healing has
// stopped for (a field a program changed back K times within the window). An
// object whose only drift is such fields is not applied at all.
import { removePointer } from "../../drift/edit-object.ts";
import { keyString, objectKey } from "../../model/object-key.ts";
import { type PlannedObject, planRevert, type RevertPlan } from "../../plan/revert/plan-revert.ts";
import type { FoughtObject } from "../../report/app/heal-sections.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import type { HealFightWatch } from "./watch-heal-fights.ts";

export async function planHeal(params: {
  scan: ScanResult;
  watch: HealFightWatch;
}): Promise<{ plan: RevertPlan; objects: PlannedObject[]; fought: FoughtObject[] }> {
  const { scan, watch } = params;
  const plan = planRevert({ desired: scan.desired, pairings: scan.pairings });
  const objects: PlannedObject[] = [];
  const fought: FoughtObject[] = [];
  for (const planned of plan.objects) {
    if (planned.status !== "drifted" && planned.status !== "missing") continue;
    const key = keyString(objectKey(planned.desired.object));
    const stopped: FoughtObject["fields"] = [];
    for (const change of watch.changesOf(key)) {
      const manager = watch.fighter(change);
      if (!manager) continue;
      const count = await watch.fights.count({ object: key, path: change.path }, manager);
      if (count >= watch.policy.heals) stopped.push({ path: change.path, manager, heals: count });
    }
    if (stopped.length > 0) fought.push({ object: planned.desired.object, fields: stopped });
    const stoppedPaths = new Set(stopped.map((f) => f.path));
    const rest = planned.changes.filter((path) => !stoppedPaths.has(path));
    if (planned.status === "drifted" && rest.length === 0) continue;
    if (stoppedPaths.size === 0) {
      objects.push(planned);
      continue;
    }
    // Left out of the apply, the fought fields stay with the manager that last wrote them.
    const object = structuredClone(planned.desired.object);
    for (const path of stoppedPaths) removePointer(object, path);
    objects.push({ ...planned, desired: { ...planned.desired, object }, changes: rest });
  }
  return { plan, objects, fought };
}
