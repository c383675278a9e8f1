// A scan cut to some of its drift, the way mode shares cut it (mode-shares.ts):
//   selectDrift: only the objects (and, for a drifted object, only the fields)
//     a person ticked on the dashboard, for a codify or revert PR of just those;
//   withoutObjects: every object but the snoozed ones, so a snoozed object is
//     not reported, healed or notified.
// In-sync objects stay: they are no one's work. Summary and fingerprint are
// computed again, so each PR and issue follows its own drift.
import { findingOf, type Pairing } from "../drift/build-report.ts";
import { summarize } from "../drift/summarize.ts";
import { keyString, objectKey, refKey } from "../model/object-key.ts";
import type { ObjectRef } from "../model/object-label.ts";
import type { ResourceReport } from "../model/types.ts";
import type { ShareableScan } from "./mode-shares.ts";

/** One ticked item: a whole object, or one field of it. */
export interface DriftItem {
  ref: ObjectRef;
  path?: string;
}

/** `scan` with only the drift of `items`: whole objects as they are, fields of the rest. */
export function selectDrift<S extends ShareableScan>(scan: S, items: readonly DriftItem[]): S {
  // Per object key: undefined means the whole object, a set means those fields only.
  const chosen = new Map<string, Set<string> | undefined>();
  for (const item of items) {
    const key = keyString(refKey(item.ref));
    if (item.path === undefined) chosen.set(key, undefined);
    else if (!chosen.has(key) || chosen.get(key)) chosen.set(key, new Set([...(chosen.get(key) ?? []), item.path]));
  }
  const resources: ResourceReport[] = [];
  for (const r of scan.report.resources) {
    const key = keyString(refKey(r));
    if (r.status === "in-sync") resources.push(r);
    else if (chosen.has(key)) {
      const paths = chosen.get(key);
      resources.push(paths ? { ...r, changes: r.changes.filter((c) => paths.has(c.path)) } : r);
    }
  }
  const pairings: Pairing[] = [];
  for (const p of scan.pairings) {
    const key = pairingKey(p);
    if (!chosen.has(key)) {
      // In sync: kept, as in the report.
      if (p.desired && findingOf(p) === "in-sync") pairings.push(p);
      continue;
    }
    const paths = chosen.get(key);
    pairings.push(
      paths && p.comparison
        ? { ...p, comparison: { ...p.comparison, changes: p.comparison.changes.filter((c) => paths.has(c.path)) } }
        : p,
    );
  }
  return { ...scan, report: { ...scan.report, resources, ...summarize(resources) }, pairings };
}

/** Whether `item` still drifts in `report`: its object is not in sync and, for a field, that field still differs. */
export function stillDrifts(report: ShareableScan["report"], item: DriftItem): boolean {
  const key = keyString(refKey(item.ref));
  const found = report.resources.find((r) => r.status !== "in-sync" && keyString(refKey(r)) === key);
  return found !== undefined && (item.path === undefined || found.changes.some((c) => c.path === item.path));
}

/** Whether two items name the same object and field. */
export function sameItem(a: DriftItem, b: DriftItem): boolean {
  return keyString(refKey(a.ref)) === keyString(refKey(b.ref)) && a.path === b.path;
}

/** `scan` without the objects of `refs` at all. */
export function withoutObjects<S extends ShareableScan>(scan: S, refs: readonly ObjectRef[]): S {
  if (refs.length === 0) return scan;
  const gone = new Set(refs.map((ref) => keyString(refKey(ref))));
  const resources = scan.report.resources.filter((r) => !gone.has(keyString(refKey(r))));
  const pairings = scan.pairings.filter((p) => !gone.has(pairingKey(p)));
  return { ...scan, report: { ...scan.report, resources, ...summarize(resources) }, pairings };
}

function pairingKey(p: Pairing): string {
  return keyString(objectKey((p.desired?.object ?? p.live)!));
}
