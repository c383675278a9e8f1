// Which fields one write changed, as JSON pointers into the object (never a
// value), and whether that covers a drifted field. managedFields keeps one
// entry per manager, stamped with that manager's last write: two people who
// `kubectl patch` one object seconds apart share one `kubectl-patch` entry
// stamped with the later time, so the time alone names the later person for
// both fields. The recorder knows what each request changed (admission: the
// old and new object; audit: the patch body), so a field is joined only to a
// write whose own change covers it.
//
//   const written = changedFields(review.oldObject, review.object); // { fields: ["/data/a"] }
//   coverage(record, "/data/a"); // "yes"

import type { WriteRecord } from "../model/write-record.ts";
import { escapePointer } from "./field-path.ts";

/** What a record says its write changed: `fields` exactly; under each of `within`, something not known which. */
export type WrittenFields = Pick<WriteRecord, "fields" | "within">;

/** At most this many pointers a record keeps; a write that changed more is kept as "not known which fields". */
export const MAX_WRITTEN_FIELDS = 256;
/** The longest pointer a record keeps; a longer one makes the fields unknown. */
export const MAX_POINTER = 512;

// Written by the API server on every write, not by the person: leaving them out keeps a one-field patch one field.
const SERVER_WRITTEN = new Set(["/metadata/managedFields", "/metadata/resourceVersion", "/metadata/generation"]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What became of the pointers: kept when within the bounds, else nothing (the fields are then unknown). */
function bounded(fields: string[], within: string[]): WrittenFields {
  const all = [...fields, ...within];
  if (all.length > MAX_WRITTEN_FIELDS || all.some((p) => p.length > MAX_POINTER)) return {};
  return { fields, ...(within.length > 0 ? { within } : {}) };
}

/** What a create wrote: every field (the root pointer ""). */
export const EVERY_FIELD: WrittenFields = { fields: [""] };

/**
 * The fields an admitted update changed, from the object before and after it; unknown without both. A list
 * whose length changed is `within` (its items may only have shifted).
 */
export function changedFields(before: unknown, after: unknown): WrittenFields {
  if (!isObject(after) || !isObject(before)) return {};
  const fields: string[] = [];
  const within: string[] = [];
  const walk = (a: unknown, b: unknown, pointer: string): void => {
    if (SERVER_WRITTEN.has(pointer) || pointer.startsWith("/status")) return;
    if (fields.length + within.length > MAX_WRITTEN_FIELDS) return;
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk(a[key], b[key], `${pointer}/${escapePointer(key)}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        if (JSON.stringify(a) !== JSON.stringify(b)) within.push(pointer);
        return;
      }
      for (const [index, item] of a.entries()) walk(item, b[index], `${pointer}/${index}`);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) fields.push(pointer);
  };
  walk(before, after, "");
  return bounded(fields, within);
}

/**
 * The fields a patch body names, as an audit event carries it (`requestObject`): a JSON patch's operations'
 * paths; a merge, strategic merge or apply patch's leaves (a null is a removal, so a field too). A list in such a
 * patch is matched to the live list by keys or replaced, so it is `within`; so is a map a `$` directive changes.
 */
export function patchFields(body: unknown): WrittenFields {
  if (Array.isArray(body)) {
    const fields: string[] = [];
    for (const op of body) {
      if (!isObject(op) || typeof op.path !== "string") return {};
      if (op.op === "test") continue;
      fields.push(op.path);
      if (op.op === "move" && typeof op.from === "string") fields.push(op.from);
    }
    return bounded(fields, []);
  }
  if (!isObject(body)) return {};
  const fields: string[] = [];
  const within: string[] = [];
  const walk = (value: unknown, pointer: string): void => {
    if (fields.length + within.length > MAX_WRITTEN_FIELDS) return;
    if (Array.isArray(value)) within.push(pointer);
    else if (!isObject(value)) fields.push(pointer);
    else if (Object.keys(value).length === 0) fields.push(pointer);
    else if (Object.keys(value).some((key) => key.startsWith("$"))) within.push(pointer);
    else for (const [key, child] of Object.entries(value)) walk(child, `${pointer}/${escapePointer(key)}`);
  };
  walk(body, "");
  return bounded(
    fields.filter((p) => !SERVER_WRITTEN.has(p)),
    within,
  );
}

const under = (pointer: string, ancestor: string) => pointer === ancestor || pointer.startsWith(`${ancestor}/`);

/**
 * Whether a write changed the field at `path`: `yes` when one of its fields is the field, above it (the write
 * set the whole map) or below it (the write changed part of it); `maybe` when only a `within` reaches it;
 * `no` when the write says what it changed and that is elsewhere; `unknown` when it does not say.
 */
export function coverage(written: WrittenFields, path: string): "yes" | "maybe" | "no" | "unknown" {
  if (written.fields === undefined) return "unknown";
  const touches = (p: string) => under(path, p) || under(p, path);
  if (written.fields.some(touches)) return "yes";
  if ((written.within ?? []).some(touches)) return "maybe";
  return "no";
}
