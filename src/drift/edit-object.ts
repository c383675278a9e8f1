// Removing and setting fields of a JSON object by JSON pointer or managedFields
// path. Used to drop ignored fields before comparing and to build the object a
// diff shows. Callers pass copies; these functions edit in place.
import { type FieldPath, findItem, keyOf } from "./field-path.ts";

type Json = unknown;
const isMap = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Removes the value at a JSON pointer; a missing path is fine. */
export function removePointer(root: Json, pointer: string): void {
  removeSegments(root, parsePointer(pointer));
}

/** Removes the value at a path of keys and indices (as jq's `path()` yields them). */
export function removeSegments(root: Json, segments: Array<string | number>): void {
  if (segments.length === 0) return;
  let node = root;
  for (const segment of segments.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(segment)] : isMap(node) ? node[String(segment)] : undefined;
    if (node === undefined) return;
  }
  const last = segments.at(-1)!;
  if (Array.isArray(node)) {
    const index = Number(last);
    if (Number.isInteger(index) && index < node.length) node.splice(index, 1);
  } else if (isMap(node)) delete node[String(last)];
}

/** Removes the value at a managedFields path. */
export function removePath(root: Json, path: FieldPath): void {
  setPath(root, path, undefined);
}

/** Sets (or with `undefined`, removes) the value at a managedFields path, creating maps and list items on the way. */
export function setPath(root: Json, path: FieldPath, value: Json): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const token = path[i]!;
    const last = i === path.length - 1;
    if (token.startsWith("f:")) {
      if (!isMap(node)) return;
      const name = token.slice(2);
      if (last) {
        if (value === undefined) delete node[name];
        else node[name] = value;
        return;
      }
      if (node[name] === undefined || node[name] === null) {
        if (value === undefined) return;
        node[name] = path[i + 1]!.startsWith("f:") ? {} : [];
      }
      node = node[name];
    } else {
      if (!Array.isArray(node)) return;
      const key = keyOf(token);
      const literal = token.startsWith("v:") ? token.slice(2) : undefined;
      const index = key
        ? findItem(node, key)
        : literal !== undefined
          ? node.findIndex((item) => JSON.stringify(item) === literal)
          : Number(token.slice(2));
      if (last) {
        if (value === undefined) {
          if (index >= 0 && index < node.length) node.splice(index, 1);
        } else if (index >= 0 && index < node.length) node[index] = value;
        else node.push(value);
        return;
      }
      if (index < 0 || index >= node.length) {
        if (value === undefined || !key) return;
        node.push({ ...key });
        node = node.at(-1);
      } else node = node[index];
    }
  }
}
