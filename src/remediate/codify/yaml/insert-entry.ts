// Adds a key to a map or an item to a list as new lines (block) or a new entry
// (flow), after the last entry or before a given item, in the collection's own
// indentation; nothing else in the text moves.
import { isMap, type Node, type YAMLMap, type YAMLSeq } from "yaml";
import { renderScalar } from "./render-scalar.ts";
import { renderBlockLines, renderFlow } from "./render-value.ts";
import { siblingStyle } from "./sibling-style.ts";
import { atLineStart, column, lineStart, nextLineStart, skipDeeperComments } from "./text-lines.ts";
import { YamlEditError } from "./yaml-edit-error.ts";
import { contentEnd, entryStart, type Layout } from "./yaml-layout.ts";

type Json = unknown;
const isCollectionValue = (v: Json) => typeof v === "object" && v !== null;
const isEmptyCollection = (v: Json) =>
  Array.isArray(v) ? v.length === 0 : isCollectionValue(v) && Object.keys(v as object).length === 0;

export interface InsertEntryParams {
  file: string;
  text: string;
  collection: YAMLMap | YAMLSeq;
  /** The key, for a map. */
  name?: string;
  value: Json;
  /** Insert before this item (lists only); after the last entry when absent or past the end. */
  before?: number;
  layout: Layout;
  quoteAll?: boolean;
}

export function insertEntry(params: InsertEntryParams): string {
  const { text, collection } = params;
  if (collection.flow) return insertFlow(params);
  const count = collection.items.length;
  const firstStart = entryStart(collection as Node, 0);
  if (firstStart === undefined)
    throw new YamlEditError(`${params.file}: cannot find where a collection starts`, params);
  const indent = column(text, firstStart);
  const lines = blockLines({ ...params, indent });
  const br = params.layout.lineBreak;
  const before = params.before;
  if (!isMap(collection) && before !== undefined && before < count) {
    const dash = entryStart(collection as Node, before)!;
    if (!atLineStart(text, dash))
      throw new YamlEditError(`${params.file}: a list item does not start its line`, params);
    const at = lineStart(text, dash);
    return text.slice(0, at) + lines.join(br) + br + text.slice(at);
  }
  let at = nextLineStart(text, contentEnd(text, collection.items[count - 1] as Node));
  const needsBreak = at === text.length && !text.endsWith("\n");
  at = skipDeeperComments(text, at, indent);
  return text.slice(0, at) + (needsBreak ? br : "") + lines.join(br) + (needsBreak ? "" : br) + text.slice(at);
}

/** The new entry's lines at `indent`: `key: value`, `- item`, or a nested block. */
function blockLines(params: {
  collection: YAMLMap | YAMLSeq;
  name?: string;
  value: Json;
  indent: number;
  layout: Layout;
  quoteAll?: boolean;
}): string[] {
  const { collection, name, value, indent, layout } = params;
  const pad = " ".repeat(indent);
  const lead =
    name === undefined
      ? "- "
      : `${renderScalar({ value: name, inFlow: false, blockIndent: 0, lineBreak: layout.lineBreak }).text}:`;
  if (isCollectionValue(value) && !isEmptyCollection(value)) {
    if (name !== undefined) return renderBlockLines({ [name]: value }, indent, layout);
    return renderBlockLines([value], indent, layout);
  }
  const scalar = isEmptyCollection(value)
    ? { text: Array.isArray(value) ? "[]" : "{}", block: false }
    : renderScalar({
        value,
        style: params.quoteAll ? "QUOTE_DOUBLE" : siblingStyle(collection as Node),
        inFlow: false,
        blockIndent: indent + (name === undefined ? 2 : layout.unit),
        lineBreak: layout.lineBreak,
      });
  const space = name === undefined ? "" : " ";
  const text = `${pad}${lead}${space}${scalar.text}`;
  // A block scalar brings its own lines and final line break.
  return scalar.block ? text.replace(/\r?\n$/, "").split(layout.lineBreak) : [text];
}

function insertFlow(params: Omit<InsertEntryParams, "file">): string {
  const { text, collection, name, value } = params;
  const rendered = isCollectionValue(value)
    ? renderFlow(value)
    : renderScalar({
        value,
        style: params.quoteAll ? "QUOTE_DOUBLE" : siblingStyle(collection as Node),
        inFlow: true,
        blockIndent: 0,
        lineBreak: params.layout.lineBreak,
      }).text;
  const entry =
    name === undefined
      ? rendered
      : `${renderScalar({ value: name, inFlow: true, blockIndent: 0, lineBreak: params.layout.lineBreak }).text}: ${rendered}`;
  const count = collection.items.length;
  const [open = 0] = (collection as Node).range ?? [];
  if (count === 0) return text.slice(0, open + 1) + entry + text.slice(open + 1);
  if (params.before !== undefined && params.before < count) {
    const at = entryStart(collection as Node, params.before)!;
    return `${text.slice(0, at)}${entry}, ${text.slice(at)}`;
  }
  const end = contentEnd(text, collection.items[count - 1] as Node);
  const first = entryStart(collection as Node, 0)!;
  // A flow collection written one entry per line gets the new entry on a line of its own.
  const multiline = text.slice(open, end).includes("\n");
  const separator = multiline ? `,${params.layout.lineBreak}${" ".repeat(column(text, first))}` : ", ";
  return text.slice(0, end) + separator + entry + text.slice(end);
}
