// Follows a managedFields-style path (`f:`, `k:`, `v:`, `i:` tokens) through a
// parsed YAML document: keys by name, keyed list items by their merge key
// (findItem, so a port whose `protocol: TCP` Git leaves out is still found),
// set items by value. The plain value is walked alongside, because keys and
// items are matched on resolved values (aliases, merge keys).
import { type Document, isAlias, isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import { type FieldPath, findItem, keyOf } from "../../../drift/field-path.ts";

/** One token found: the collection it indexes, the entry's index there, and the entry's value node. */
export interface Step {
  parent: YAMLMap | YAMLSeq;
  index: number;
  pair?: Pair;
  node: Node | null;
}

export interface Located {
  /** The steps found, one per token, from the document root. */
  steps: Step[];
  /** The first token not found, when the path is not all there; the node reached before it is `reached`. */
  missingAt?: number;
  reached: Node | null;
  /** An alias the path would have to go through: editing behind it would edit its anchor. */
  alias?: { at: number };
}

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

export function locatePath(doc: Document.Parsed, value: Json, path: FieldPath): Located {
  const steps: Step[] = [];
  let node = doc.contents as Node | null;
  let json = value;
  for (let at = 0; at < path.length; at++) {
    const token = path[at]!;
    if (isAlias(node)) return { steps, reached: node, alias: { at } };
    if (token.startsWith("f:")) {
      const name = token.slice(2);
      if (!isMap(node)) return { steps, missingAt: at, reached: node };
      const index = node.items.findIndex((p) => isScalar(p.key) && String(p.key.value) === name);
      if (index < 0) return { steps, missingAt: at, reached: node };
      const pair = node.items[index]!;
      steps.push({ parent: node, index, pair, node: pair.value as Node | null });
      node = pair.value as Node | null;
      json = isRecord(json) ? json[name] : undefined;
      continue;
    }
    if (!isSeq(node)) return { steps, missingAt: at, reached: node };
    const items = Array.isArray(json) ? json : [];
    const index = itemIndex(items, token);
    if (index < 0 || index >= node.items.length) return { steps, missingAt: at, reached: node };
    steps.push({ parent: node, index, node: node.items[index] as Node | null });
    node = node.items[index] as Node | null;
    json = items[index];
  }
  return { steps, reached: node };
}

/** Index of the list item a `k:`, `v:` or `i:` token names, or -1. */
function itemIndex(items: Json[], token: string): number {
  if (token.startsWith("k:")) return findItem(items, keyOf(token)!);
  if (token.startsWith("v:")) {
    const literal = token.slice(2);
    return items.findIndex((item) => JSON.stringify(item) === literal);
  }
  if (token.startsWith("i:")) {
    const index = Number(token.slice(2));
    return Number.isInteger(index) && index < items.length ? index : -1;
  }
  return -1;
}
