// What heal applied, object by object, with the fields it set back and who had
// changed them; each heal of a field a program had changed counts towards a
// fight (only when the object was created or configured).
import { keyString, objectKey } from "../../model/object-key.ts";
import type { AppliedEntry } from "../../remediate/revert/record-health.ts";
import type { HealedObject } from "../../report/app/heal-sections.ts";
import type { HealFightWatch } from "./watch-heal-fights.ts";

export async function countHeals(params: { entries: AppliedEntry[]; watch: HealFightWatch }): Promise<HealedObject[]> {
  const { watch } = params;
  const healed: HealedObject[] = [];
  for (const entry of params.entries) {
    const object = entry.planned.desired.object;
    const key = keyString(objectKey(object));
    const done = entry.record.action === "created" || entry.record.action === "configured";
    const paths = new Set(entry.planned.changes);
    const fields: HealedObject["fields"] = [];
    for (const change of watch.changesOf(key)) {
      if (!paths.has(change.path)) continue;
      const manager = watch.fighter(change);
      const count =
        done && manager ? await watch.fights.record({ object: key, path: change.path }, manager) : undefined;
      fields.push({
        path: change.path,
        ...(change.manager ? { manager: change.manager } : {}),
        ...(count !== undefined ? { heals: count } : {}),
      });
    }
    healed.push({
      object,
      action: entry.record.action,
      fields,
      ...(entry.record.reason ? { reason: entry.record.reason } : {}),
    });
  }
  return healed;
}
