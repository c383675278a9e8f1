// New values written as YAML text in the file's own habits: its indent unit,
// sequences indented under their key or not, scalars plain when they read back
// the same (as YAML 1.2 and as kubectl's YAML 1.1), else double-quoted, and
// multi-line strings as literal blocks. Written here rather than by the `yaml`
// stringifier, whose unindented sequences do not follow a 4-space unit.
import { renderScalar } from "./render-scalar.ts";
import type { Layout } from "./yaml-layout.ts";

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const isFilled = (v: Json) => (Array.isArray(v) ? v.length > 0 : isRecord(v) && Object.keys(v).length > 0);

/** Block lines of `value` (a non-empty map or list) at `indent` spaces; no line breaks. */
export function renderBlockLines(value: Json, indent: number, layout: Layout): string[] {
  const out: string[] = [];
  if (Array.isArray(value)) listLines(value, indent, layout, out);
  else mapLines(value as Record<string, Json>, indent, layout, out);
  return out;
}

/** `value` as flow text (`{a: 1, b: [x, y]}`), for inside `{}`/`[]`. */
export function renderFlow(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(renderFlow).join(", ")}]`;
  if (isRecord(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${flowScalar(k)}: ${renderFlow(v)}`)
      .join(", ")}}`;
  }
  return flowScalar(value);
}

function flowScalar(value: Json): string {
  return renderScalar({ value, inFlow: true, blockIndent: 0, lineBreak: "\n" }).text;
}

function mapLines(map: Record<string, Json>, indent: number, layout: Layout, out: string[]): void {
  const pad = " ".repeat(indent);
  for (const [key, value] of Object.entries(map)) {
    const head = `${pad}${renderScalar({ value: key, inFlow: false, blockIndent: 0, lineBreak: "\n" }).text}:`;
    if (isFilled(value)) {
      out.push(head);
      if (Array.isArray(value)) listLines(value, layout.indentSeq ? indent + layout.unit : indent, layout, out);
      else mapLines(value as Record<string, Json>, indent + layout.unit, layout, out);
    } else out.push(...scalarLines(head, value, indent + layout.unit));
  }
}

function listLines(list: Json[], indent: number, layout: Layout, out: string[]): void {
  const pad = " ".repeat(indent);
  for (const item of list) {
    if (isRecord(item) && isFilled(item)) {
      // The item's first key follows its `- `; the others line up under it.
      const lines: string[] = [];
      mapLines(item, indent + 2, layout, lines);
      lines[0] = `${pad}- ${lines[0]!.slice(indent + 2)}`;
      out.push(...lines);
    } else if (Array.isArray(item) && isFilled(item)) {
      out.push(`${pad}-`);
      listLines(item, indent + 2, layout, out);
    } else out.push(...scalarLines(`${pad}-`, item, indent + 2));
  }
}

/** `head value` for a scalar or empty collection; a multi-line string as `head |` and its lines. */
function scalarLines(head: string, value: Json, blockIndent: number): string[] {
  if (Array.isArray(value)) return [`${head} []`];
  if (isRecord(value)) return [`${head} {}`];
  const rendered = renderScalar({ value, inFlow: false, blockIndent, lineBreak: "\n" });
  if (!rendered.block) return [`${head} ${rendered.text}`];
  const [header, ...rest] = rendered.text.replace(/\n$/, "").split("\n");
  return [`${head} ${header}`, ...rest];
}
