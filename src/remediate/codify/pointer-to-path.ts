// A reported change's JSON pointer turned into a managedFields-style path, so
// the edit finds its list items by merge key rather than by index. A list
// without keys (an atomic list such as `args`) ends the path: it changes whole.
import { type FieldPath, keyToken } from "../../drift/field-path.ts";
import type { ListShapes } from "../../drift/list-shapes.ts";

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

export interface PathOfPointer {
  path: FieldPath;
  /** The pointer went on inside a list that changes as a whole; `path` names that list. */
  truncated: boolean;
}

/** The path of `pointer` in `root`, or undefined when the pointer does not lead anywhere in it. */
export function pointerToPath(params: { root: Json; pointer: string; shapes: ListShapes }): PathOfPointer | undefined {
  const { root, shapes } = params;
  const segments =
    params.pointer === ""
      ? []
      : params.pointer
          .slice(1)
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const path: FieldPath = [];
  let node = root;
  for (const segment of segments) {
    if (Array.isArray(node)) {
      const item = node[Number(segment)];
      if (item === undefined) return undefined;
      const shape = shapes.shapeOf(path);
      const token =
        shape.type === "map"
          ? keyToken(item, shape.keys)
          : shape.type === "set"
            ? `v:${JSON.stringify(item)}`
            : undefined;
      if (token === undefined) return { path, truncated: true };
      path.push(token);
      node = item;
    } else if (isRecord(node)) {
      path.push(`f:${segment}`);
      node = node[segment];
    } else return undefined;
  }
  return { path, truncated: false };
}
