// What a drift report touched, in the audit entry's terms: the objects that
// are not in sync, their changed fields and the managers that changed them.
// Names and pointers only: the entry has no place for a value. The people
// behind the changes (from the cluster's records of writes) are kept as
// `field by person at time`, so `undrift audit` says who changed what.
import { oneLine } from "../model/one-line.ts";
import type { DriftReport } from "../model/types.ts";
import { describeDeletion, whoAndWhen } from "../report/describe-actor.ts";

/**
 * `Kind/namespace/name` of each object not in sync, `Kind/namespace/name:/pointer` of each change, the managers, and
 * the writers: `Kind/namespace/name:/pointer by alice (sre) at <time>` for each change with an actor,
 * `Kind/namespace/name deleted by bob (dev) at <time>` for a missing object whose deletion was recorded.
 */
export function reportAudit(report: DriftReport): {
  objects: string[];
  fields: string[];
  managers: string[];
  writers: string[];
} {
  const objects: string[] = [];
  const fields: string[] = [];
  const managers = new Set<string>();
  const writers: string[] = [];
  // One line each, within the entry's 512 characters however many groups a caller has.
  const writer = (text: string) => writers.push(oneLine(text, { max: 512 }));
  for (const resource of report.resources) {
    if (resource.status === "in-sync") continue;
    const name = [resource.kind, resource.namespace, resource.name].filter(Boolean).join("/");
    objects.push(name);
    if (resource.deletedBy) writer(`${name} ${describeDeletion(resource.deletedBy)}`);
    for (const change of resource.changes) {
      fields.push(`${name}:${change.path}`);
      if (change.manager) managers.add(change.manager);
      if (change.actor) writer(`${name}:${change.path} by ${whoAndWhen(change.actor)}`);
    }
  }
  return { objects, fields, managers: [...managers], writers };
}
