// Where entries of a parsed YAML document begin and end in its text, and the
// indentation habits of the file (its indent unit, whether sequences under a
// key are indented), so inserted text looks like the text around it.
import {
  type CST,
  type Document,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  visit,
  type YAMLSeq,
} from "yaml";
import { column } from "./text-lines.ts";

/** How a document indents: `unit` spaces per level, and `- ` items indented under their key or not. */
export interface Layout {
  unit: number;
  indentSeq: boolean;
  lineBreak: "\n" | "\r\n";
}

/** Offset just after the last character of a node's value (trailing comments, spaces and line breaks excluded). */
export function contentEnd(text: string, node: Node | Pair | null | undefined): number {
  if (!node) return 0;
  if (isPair(node)) return contentEnd(text, (node.value as Node | null) ?? (node.key as Node));
  if (isCollection(node) && !node.flow) {
    const last = node.items.at(-1) as Node | Pair | undefined;
    if (last) return contentEnd(text, last);
  }
  const [start, end] = node.range ?? [0, 0];
  let at = end;
  while (at > start && " \t\r\n".includes(text[at - 1]!)) at--;
  return at;
}

/** Offset of the `-` indicator of a block sequence's item, from the source tokens. */
export function dashOffset(seq: YAMLSeq, index: number): number | undefined {
  const token = seq.srcToken as CST.BlockSequence | undefined;
  if (token?.type !== "block-seq") return undefined;
  return token.items[index]?.start.find((t) => t.type === "seq-item-ind")?.offset;
}

/** Offset where an entry of a collection starts: a pair's key, a block item's `-`, a flow item's value. */
export function entryStart(collection: Node, index: number): number | undefined {
  if (isMap(collection)) {
    const pair = collection.items[index];
    return (pair?.key as Node | null)?.range?.[0];
  }
  if (isSeq(collection)) {
    if (!collection.flow) return dashOffset(collection, index);
    return (collection.items[index] as Node | undefined)?.range?.[0];
  }
  return undefined;
}

/** The indentation habits of a document: the first nested map and the first sequence under a key tell them. */
export function layoutOf(doc: Document.Parsed, text: string, lineBreak: "\n" | "\r\n"): Layout {
  let unit: number | undefined;
  let indentSeq: boolean | undefined;
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      if (!isScalar(key) || !key.range) return;
      const keyColumn = column(text, key.range[0]);
      const value = pair.value as Node | null;
      if (unit === undefined && isMap(value) && !value.flow) {
        const child = (value.items[0]?.key as Node | undefined)?.range?.[0];
        if (child !== undefined && column(text, child) > keyColumn) unit = column(text, child) - keyColumn;
      }
      if (indentSeq === undefined && isSeq(value) && !value.flow) {
        const dash = dashOffset(value, 0);
        if (dash !== undefined) indentSeq = column(text, dash) > keyColumn;
      }
      if (unit !== undefined && indentSeq !== undefined) return visit.BREAK;
      return undefined;
    },
  });
  return { unit: unit ?? 2, indentSeq: indentSeq ?? true, lineBreak };
}
