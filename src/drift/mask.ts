// Secret values never leave the engine: every value under a Secret's `data`
// and `stringData` becomes a mask before a report exists, so no renderer, log,
// job payload or error can carry one. Masks say only whether a value changed,
// as Flux's ssa sanitizer does: `***`, or `*** (before)` / `*** (after)`.
import { isSecret } from "../model/is-secret.ts";
import type { Change, KubeObject, ResourceReport } from "../model/types.ts";

export const mask = "***";
export const maskBefore = "*** (before)";
export const maskAfter = "*** (after)";

const secretMaps = ["data", "stringData"] as const;
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";

type Values = Record<string, unknown>;
const valuesOf = (o: KubeObject | undefined, map: string) => (o?.[map] ?? undefined) as Values | undefined;

/** Masks the Secret values of a live/would-be pair of objects (copies are returned). */
export function maskSecretPair(
  live?: KubeObject,
  wouldBe?: KubeObject,
): [KubeObject | undefined, KubeObject | undefined] {
  const l = live && structuredClone(live);
  const w = wouldBe && structuredClone(wouldBe);
  for (const map of secretMaps) {
    const a = valuesOf(l, map);
    const b = valuesOf(w, map);
    for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      const changed = a?.[key] !== undefined && b?.[key] !== undefined && a[key] !== b[key];
      if (a && key in a) a[key] = changed ? maskBefore : mask;
      if (b && key in b) b[key] = changed ? maskAfter : mask;
    }
  }
  // Client-side kubectl apply keeps the whole manifest, values included, in this annotation.
  for (const o of [l, w]) if (o?.metadata.annotations?.[lastApplied]) o.metadata.annotations[lastApplied] = mask;
  return [l, w];
}

function maskValue(value: unknown, masked: string): unknown {
  if (value === undefined) return undefined;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.keys(value).map((k) => [k, mask]));
  }
  return masked;
}

/** Masks a change to a Secret when it touches its values. */
export function maskSecretChange(change: Change): Change {
  const top = change.path.split("/")[1] ?? "";
  const touchesValues = top === "data" || top === "stringData" || change.path.endsWith(lastApplied.replace("/", "~1"));
  if (!touchesValues) return change;
  const changed = change.live !== undefined && change.desired !== undefined;
  const out: Change = { ...change };
  if ("live" in change) out.live = maskValue(change.live, changed ? maskBefore : mask);
  if ("desired" in change) out.desired = maskValue(change.desired, changed ? maskAfter : mask);
  return out;
}

/** A resource report with every Secret value masked; other kinds pass through untouched. */
export function maskResource(resource: ResourceReport): ResourceReport {
  if (!isSecret(resource)) return resource;
  const [live, wouldBe] = maskSecretPair(resource.live, resource.wouldBe);
  const out: ResourceReport = { ...resource, changes: resource.changes.map(maskSecretChange) };
  if (live) out.live = live;
  if (wouldBe) out.wouldBe = wouldBe;
  return out;
}

/** Removes Secret values (plain and base64) from a message, such as an API error about a Secret. */
export function redactSecretValues(message: string, secrets: KubeObject[]): string {
  let out = message;
  for (const secret of secrets) {
    for (const map of secretMaps) {
      for (const value of Object.values(valuesOf(secret, map) ?? {})) {
        if (typeof value !== "string" || value.length < 4) continue;
        const plain = map === "data" ? Buffer.from(value, "base64").toString("utf8") : value;
        const encoded = map === "data" ? value : Buffer.from(value).toString("base64");
        for (const needle of [plain, encoded]) if (needle.length >= 4) out = out.split(needle).join(mask);
      }
    }
  }
  return out;
}
