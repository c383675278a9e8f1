// Structural difference of two JSON values, at the granularity a reviewer
// wants: map keys down to their leaves, keyed list items matched by key (a
// sidecar inserted first does not shift the app container), a list item or
// atomic list that exists on one side only as one change.
import { type FieldPath, field, findItem, keyOf, keyToken, pointer } from "./field-path.ts";
import type { ListShapes } from "./list-shapes.ts";

export interface ValueDiff {
  path: FieldPath;
  /** JSON pointer, with list indices of side `a` where the item exists there, else of side `b`. */
  pointer: string;
  a?: unknown;
  b?: unknown;
}

export interface DiffContext {
  shapes: ListShapes;
  /** Whether two scalars at a path are the same value (quantities by amount). */
  sameScalar(path: FieldPath, a: unknown, b: unknown): boolean;
  /** Only what side `b` sets: keys and list items only `a` has are not walked (Git-set fields against live). */
  bSetOnly?: boolean;
}

type Json = unknown;
const isMap = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Null, absent, {} and [] all mean "not set" to the API server's apply. */
export function isEmpty(v: Json): boolean {
  return (
    v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isMap(v) && Object.keys(v).length === 0)
  );
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a).filter((k) => !isEmpty(a[k]));
    return (
      keys.length === Object.keys(b).filter((k) => !isEmpty(b[k])).length && keys.every((k) => deepEqual(a[k], b[k]))
    );
  }
  return false;
}

export function diffValues(a: Json, b: Json, context: DiffContext): ValueDiff[] {
  const out: ValueDiff[] = [];
  walk(a, b, [], [], context, out);
  return out;
}

function change(out: ValueDiff[], path: FieldPath, segments: Array<string | number>, a: Json, b: Json): void {
  const diff: ValueDiff = { path, pointer: pointer(segments) };
  if (!isEmpty(a)) diff.a = a;
  if (!isEmpty(b)) diff.b = b;
  out.push(diff);
}

function walk(a: Json, b: Json, path: FieldPath, segments: Array<string | number>, ctx: DiffContext, out: ValueDiff[]) {
  if (isEmpty(a) && isEmpty(b)) return;
  if ((isMap(a) || isEmpty(a)) && (isMap(b) || isEmpty(b))) {
    const left = isMap(a) ? a : {};
    const right = isMap(b) ? b : {};
    const keys = ctx.bSetOnly
      ? Object.keys(right)
      : [...Object.keys(left), ...Object.keys(right).filter((k) => !(k in left))];
    for (const key of keys) walk(left[key], right[key], [...path, field(key)], [...segments, key], ctx, out);
    return;
  }
  if ((Array.isArray(a) || isEmpty(a)) && (Array.isArray(b) || isEmpty(b))) {
    walkList(Array.isArray(a) ? a : [], Array.isArray(b) ? b : [], path, segments, ctx, out);
    return;
  }
  if (isMap(a) || isMap(b) || Array.isArray(a) || Array.isArray(b) || !ctx.sameScalar(path, a, b)) {
    change(out, path, segments, a, b);
  }
}

function walkList(
  a: Json[],
  b: Json[],
  path: FieldPath,
  segments: Array<string | number>,
  ctx: DiffContext,
  out: ValueDiff[],
) {
  const shape = ctx.shapes.shapeOf(path);
  if (shape.type === "map") {
    const tokensA = a.map((item) => keyToken(item, shape.keys));
    const tokensB = b.map((item) => keyToken(item, shape.keys));
    if (!tokensA.includes(undefined) && !tokensB.includes(undefined)) {
      const matched = new Set<number>();
      tokensA.forEach((token, i) => {
        const found = findItem(b, keyOf(token!)!, shape.keys);
        // One item on each side pairs with at most one on the other.
        const j = found >= 0 && !matched.has(found) ? found : -1;
        if (j < 0) {
          if (!ctx.bSetOnly) change(out, [...path, token!], [...segments, i], a[i], undefined);
          return;
        }
        matched.add(j);
        walk(a[i], b[j], [...path, token!], [...segments, i], ctx, out);
      });
      tokensB.forEach((token, j) => {
        if (!matched.has(j)) change(out, [...path, token!], [...segments, j], undefined, b[j]);
      });
      return;
    }
  }
  if (shape.type === "set") {
    const jsonA = a.map((x) => JSON.stringify(x));
    const jsonB = b.map((x) => JSON.stringify(x));
    jsonA.forEach((j, i) => {
      if (!ctx.bSetOnly && !jsonB.includes(j)) change(out, [...path, `v:${j}`], [...segments, i], a[i], undefined);
    });
    jsonB.forEach((j, i) => {
      if (!jsonA.includes(j)) change(out, [...path, `v:${j}`], [...segments, i], undefined, b[i]);
    });
    return;
  }
  if (!deepEqual(a, b)) change(out, path, segments, a, b);
}

/** The value at a managedFields path, or undefined when the object does not set it. */
export function valueAt(root: Json, path: FieldPath): Json {
  let node: Json = root;
  for (const token of path) {
    if (token.startsWith("f:")) node = isMap(node) ? node[token.slice(2)] : undefined;
    else if (token.startsWith("k:")) {
      node = Array.isArray(node) ? node[findItem(node, keyOf(token)!)] : undefined;
    } else if (token.startsWith("v:")) {
      const value = token.slice(2);
      node = Array.isArray(node) ? node.find((item) => JSON.stringify(item) === value) : undefined;
    } else if (token.startsWith("i:")) node = Array.isArray(node) ? node[Number(token.slice(2))] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** The JSON pointer of a managedFields path in an object (list indices resolved), or undefined. */
export function pointerOf(root: Json, path: FieldPath): string | undefined {
  const segments: Array<string | number> = [];
  let node: Json = root;
  for (const token of path) {
    if (token.startsWith("f:")) {
      segments.push(token.slice(2));
      node = isMap(node) ? node[token.slice(2)] : undefined;
    } else {
      if (!Array.isArray(node)) return undefined;
      const item = valueAt(node, [token]);
      const index = node.indexOf(item);
      if (index < 0) return undefined;
      segments.push(index);
      node = item;
    }
  }
  return pointer(segments);
}
