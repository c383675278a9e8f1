// Replaces one value in place: a scalar keeps its quoting (and its anchor,
// tag and trailing comment, which lie outside its range); any other value is
// rewritten where it stands, as block lines under its key or item, or as flow.
import { isMap, isSeq, type Node, type Scalar } from "yaml";
import { keepSpelling } from "./keep-spelling.ts";
import type { Step } from "./locate-path.ts";
import { type RenderedScalar, renderScalar } from "./render-scalar.ts";
import { renderBlockLines, renderFlow } from "./render-value.ts";
import { column, nextLineStart } from "./text-lines.ts";
import { YamlEditError } from "./yaml-edit-error.ts";
import { contentEnd, entryStart, type Layout } from "./yaml-layout.ts";

type Json = unknown;
const isBlockScalar = (node: Scalar) => node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED";

/** Replaces a scalar's text with `value` in the same style. */
export function replaceScalar(params: {
  text: string;
  step: Step;
  value: Json;
  layout: Layout;
  quoteAll?: boolean;
}): string {
  const { text, step, layout } = params;
  const node = step.node as Scalar;
  const [start, end] = node.range!;
  const indent = ownIndent(text, step, layout);
  const blockIndent = isBlockScalar(node) ? (contentIndent(text, node) ?? indent) : indent;
  const kept =
    node.type === "PLAIN" && !params.quoteAll
      ? keepSpelling({ source: String(node.source), value: params.value })
      : undefined;
  if (kept !== undefined) return text.slice(0, start) + kept + text.slice(end);
  const rendered = renderScalar({
    value: params.value,
    style: params.quoteAll ? "QUOTE_DOUBLE" : node.type,
    inFlow: step.parent.flow === true,
    blockIndent,
    lineBreak: layout.lineBreak,
  });
  if (isBlockScalar(node)) {
    // A block scalar's range runs to the line after its content; keep-chomped ones own their trailing blank lines.
    const header = text.slice(start, text.indexOf("\n", start));
    const to = /^[|>][0-9]*\+/.test(header.trim()) ? end : nextLineStart(text, contentEnd(text, node));
    const replacement = rendered.block ? rendered.text : rendered.text + layout.lineBreak;
    return text.slice(0, start) + replacement + text.slice(to);
  }
  return spliceInline(text, start, end, rendered, layout);
}

/** Replaces the value of a key or item, whatever it is, with `value` (a null, scalar, alias or collection). */
export function replaceWhole(params: { file: string; text: string; step: Step; value: Json; layout: Layout }): string {
  const { file, text, step, value, layout } = params;
  const node = step.node;
  const flow = step.parent.flow === true;
  const indent = ownIndent(text, step, layout);
  const collection = typeof value === "object" && value !== null;
  const empty = collection && Object.keys(value as object).length === 0;
  let from: number;
  if (step.pair) {
    const key = step.pair.key as Node;
    from = text.indexOf(":", key.range![1]) + 1;
    if (from === 0) throw new YamlEditError(`${file}: cannot find the ':' after a key`, { file });
  } else {
    const start = node?.range?.[0];
    if (start === undefined) throw new YamlEditError(`${file}: cannot find a list item's value`, { file });
    from = start;
  }
  const to = node?.range ? Math.max(from, contentEnd(text, node)) : from;
  const lead = step.pair ? " " : "";
  if (flow || !collection || empty) {
    if (collection)
      return (
        text.slice(0, from) + lead + (empty ? (Array.isArray(value) ? "[]" : "{}") : renderFlow(value)) + text.slice(to)
      );
    const rendered = renderScalar({ value, inFlow: flow, blockIndent: indent, lineBreak: layout.lineBreak });
    return spliceInline(text, from, to, { ...rendered, text: lead + rendered.text }, layout);
  }
  const br = layout.lineBreak;
  if (step.pair) {
    const keyColumn = column(text, (step.pair.key as Node).range![0]);
    const childIndent = Array.isArray(value) && !layout.indentSeq ? keyColumn : keyColumn + layout.unit;
    return text.slice(0, from) + br + renderBlockLines(value, childIndent, layout).join(br) + text.slice(to);
  }
  // A list item: the first line follows its `- `, the rest line up under it.
  const [first = "", ...rest] = renderBlockLines(value, 0, layout);
  const pad = " ".repeat(indent);
  const lines = [first, ...rest.map((line) => (line === "" ? line : pad + line))];
  return text.slice(0, from) + lines.join(br) + text.slice(to);
}

/**
 * Splices a scalar over [from, to). A block scalar needs the rest of its line: the header takes
 * the line (and any trailing comment), the content the lines after.
 */
function spliceInline(text: string, from: number, to: number, rendered: RenderedScalar, layout: Layout): string {
  if (!rendered.block) return text.slice(0, from) + rendered.text + text.slice(to);
  const lineEnd = nextLineStart(text, to);
  const rest = text.slice(to, lineEnd).replace(/\r?\n$/, "");
  const br = rendered.text.indexOf(layout.lineBreak);
  return text.slice(0, from) + rendered.text.slice(0, br) + rest + rendered.text.slice(br) + text.slice(lineEnd);
}

/** Indentation for lines under a value: its key's column plus one unit, or its item's content column. */
function ownIndent(text: string, step: Step, layout: Layout): number {
  if (step.pair) return column(text, (step.pair.key as Node).range![0]) + layout.unit;
  if (isSeq(step.parent) && !step.parent.flow) {
    const dash = entryStart(step.parent as Node, step.index);
    if (dash !== undefined) return column(text, dash) + 2;
  }
  return isMap(step.parent) || isSeq(step.parent) ? layout.unit : 0;
}

/** The indentation of a block scalar's first content line, as written. */
function contentIndent(text: string, node: Scalar): number | undefined {
  const [start, end] = node.range!;
  const lines = text.slice(nextLineStart(text, start), end).split("\n");
  const first = lines.find((line) => line.trim() !== "");
  return first === undefined ? undefined : first.length - first.trimStart().length;
}
