// Secret values never leave the engine: every value under a Secret's `data`
// and `stringData` becomes a mask before a report exists, so no renderer, log,
// job payload or error can carry one. Masks say only whether a value changed,
// as Flux's ssa sanitizer does: `***`, or `*** (before)` / `*** (after)`.
// Fields of other objects that Flux filled from a Secret (post-build variables)
// are masked the same way.
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

/**
 * A resource report with the fields at `sensitive` (JSON pointers; "" is every field) masked like a Secret's
 * values: the fields of a non-Secret object that Flux filled from a Secret (DesiredObject.sensitive).
 */
export function maskSensitiveFields(resource: ResourceReport, sensitive: string[] | undefined): ResourceReport {
  if (!sensitive || sensitive.length === 0) return resource;
  const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`);
  const touches = (path: string) => sensitive.some((s) => s === "" || within(path, s) || within(s, path));
  const out: ResourceReport = {
    ...resource,
    changes: resource.changes.map((change) => {
      if (!touches(change.path)) return change;
      const changed = change.live !== undefined && change.desired !== undefined;
      const masked: Change = { ...change };
      if ("live" in change) masked.live = maskValue(change.live, changed ? maskBefore : mask);
      if ("desired" in change) masked.desired = maskValue(change.desired, changed ? maskAfter : mask);
      return masked;
    }),
  };
  for (const side of ["live", "wouldBe"] as const) {
    const object = resource[side];
    if (!object) continue;
    const copy = structuredClone(object);
    const paths = sensitive.includes("")
      ? Object.keys(copy)
          .filter((k) => !["apiVersion", "kind", "metadata"].includes(k))
          .map((k) => `/${k}`)
          .concat(["/metadata/labels", "/metadata/annotations"])
      : sensitive;
    for (const path of paths) setMasked(copy, path);
    out[side] = copy;
  }
  return out;
}

/** The value at `pointer` replaced by the mask, when it is there. */
function setMasked(object: unknown, pointer: string): void {
  const keys = pointer
    .split("/")
    .slice(1)
    .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
  let at = object as Record<string, unknown> | undefined;
  for (const key of keys.slice(0, -1)) {
    const next = at?.[key];
    if (typeof next !== "object" || next === null) return;
    at = next as Record<string, unknown>;
  }
  const last = keys.at(-1);
  if (at && last !== undefined && last in at) at[last] = mask;
}

/**
 * `message` without the values a desired object must not show: a Secret's, and those at the fields it marks
 * sensitive (Flux post-build variables from a Secret), plain and base64, as an API server's refusal may quote
 * the value it refused.
 */
export function redactObjectValues(message: string, object: KubeObject, sensitive?: readonly string[]): string {
  let out = isSecret(object) ? redactSecretValues(message, [object]) : message;
  for (const pointer of sensitive ?? []) {
    for (const value of stringsAt(object, pointer)) {
      for (const needle of [value, Buffer.from(value).toString("base64")])
        if (needle.length >= 4) out = out.split(needle).join(mask);
    }
  }
  return out;
}

/** Every string at or under `pointer` in `object` ("" is the whole object). */
function stringsAt(object: unknown, pointer: string): string[] {
  let at: unknown = object;
  for (const key of pointer.split("/").slice(1)) {
    if (typeof at !== "object" || at === null) return [];
    at = (at as Record<string, unknown>)[key.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) walk(v);
  };
  walk(at);
  return found;
}
