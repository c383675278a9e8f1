// What a drift report touched, in the audit entry's terms: the objects that
// are not in sync, their changed fields and the managers that changed them.
// Names and pointers only: the entry has no place for a value.
import type { DriftReport } from "../model/types.ts";

/** `Kind/namespace/name` of each object not in sync, `Kind/namespace/name:/pointer` of each change, and the managers. */
export function reportAudit(report: DriftReport): { objects: string[]; fields: string[]; managers: string[] } {
  const objects: string[] = [];
  const fields: string[] = [];
  const managers = new Set<string>();
  for (const resource of report.resources) {
    if (resource.status === "in-sync") continue;
    const name = [resource.kind, resource.namespace, resource.name].filter(Boolean).join("/");
    objects.push(name);
    for (const change of resource.changes) {
      fields.push(`${name}:${change.path}`);
      if (change.manager) managers.add(change.manager);
    }
  }
  return { objects, fields, managers: [...managers] };
}
