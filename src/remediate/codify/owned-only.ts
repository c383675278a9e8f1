// The part of a live value that some field manager set: what a person or a
// tool asked for, without what the API server filled in (a container's
// terminationMessagePath, a Deployment's strategy). managedFields list every
// owned leaf; a list item owned as a whole still lists its own fields.
import { type FieldPath, keyToken, pathKey } from "../../drift/field-path.ts";
import type { ListShapes } from "../../drift/list-shapes.ts";
import type { Ownership } from "../../drift/managed-fields.ts";

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `value` (found at `path` of the live object) with only owned fields; undefined when no manager owns any of it. */
export function ownedOnly(params: { value: Json; path: FieldPath; ownership: Ownership; shapes: ListShapes }): Json {
  const { ownership, shapes } = params;
  // A `k:` path owned with `.` only says the item exists; its fields are owned one by one.
  const owned = new Set(ownership.owned.filter((o) => !o.path.at(-1)!.startsWith("k:")).map((o) => pathKey(o.path)));
  const covered = (path: FieldPath) => {
    for (let length = path.length; length > 0; length--) if (owned.has(pathKey(path.slice(0, length)))) return true;
    return false;
  };
  const walk = (value: Json, path: FieldPath): Json => {
    if (covered(path)) return value;
    if (isRecord(value)) {
      const out: Record<string, Json> = {};
      for (const [key, child] of Object.entries(value)) {
        const kept = walk(child, [...path, `f:${key}`]);
        if (kept !== undefined) out[key] = kept;
      }
      return Object.keys(out).length > 0 ? out : undefined;
    }
    if (Array.isArray(value)) {
      const shape = shapes.shapeOf(path);
      if (shape.type === "atomic") return undefined;
      const out = value.flatMap((item) => {
        const token = shape.type === "map" ? keyToken(item, shape.keys) : `v:${JSON.stringify(item)}`;
        if (token === undefined) return [];
        const kept = walk(item, [...path, token]);
        return kept === undefined ? [] : [kept];
      });
      return out.length > 0 ? out : undefined;
    }
    return undefined;
  };
  return walk(params.value, params.path);
}
