// A stable hash of what has drifted: objects, statuses, paths and (masked)
// values, never managers' timestamps, so a later scan can tell the same drift
// from new drift. Built from masked reports, so Secret values cannot leak
// through it (a Secret whose value changes again keeps its fingerprint).

import { keyString, refKey } from "../model/object-key.ts";
import { shortHash } from "../model/short-hash.ts";
import type { ResourceReport } from "../model/types.ts";

export function fingerprint(resources: ResourceReport[]): string {
  const drift = resources
    .filter((r) => r.status !== "in-sync")
    .map((r) => ({
      id: keyString(refKey(r)),
      status: r.status,
      changes: r.changes
        .map((c) => [c.path, c.desired ?? null, c.live ?? null])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return shortHash(canonical(drift));
}

/** JSON with object keys sorted, so equal values hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
