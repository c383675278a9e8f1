// A scalar written the way the one it replaces was written: plain stays plain
// when the value reads back the same (as YAML 1.2 and as kubectl's YAML 1.1),
// quotes stay the same quotes, block scalars stay blocks at their indentation.
import { Scalar, stringify } from "yaml";
import { resolvePlainScalar } from "../../../desired/resolve-plain-scalar.ts";

export type ScalarStyle = "PLAIN" | "QUOTE_SINGLE" | "QUOTE_DOUBLE" | "BLOCK_LITERAL" | "BLOCK_FOLDED";

export interface RenderedScalar {
  text: string;
  /** A block scalar: the text ends with a line break and takes the lines after its header. */
  block: boolean;
}

// Control characters only double quotes can carry (tab and line feed aside).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const control = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** The text of `value` as a scalar in `style` (or plain, else double-quoted, when none is given or it cannot be). */
export function renderScalar(params: {
  value: unknown;
  style?: string | undefined;
  /** Inside `{}`/`[]`, where `,[]{}` end a plain scalar and block scalars cannot be. */
  inFlow: boolean;
  /** Indentation of a block scalar's lines. */
  blockIndent: number;
  lineBreak: "\n" | "\r\n";
}): RenderedScalar {
  const { value, style, inFlow, blockIndent, lineBreak } = params;
  if (typeof value !== "string") return { text: value === null ? "null" : String(value), block: false };
  const quoted = { text: JSON.stringify(value), block: false };
  const isBlockStyle = style === "BLOCK_LITERAL" || style === "BLOCK_FOLDED";
  if (value.includes("\n") && !inFlow && style !== "QUOTE_SINGLE" && style !== "QUOTE_DOUBLE") {
    const block = blockScalar({ value, folded: style === "BLOCK_FOLDED", indent: blockIndent, lineBreak });
    return block === undefined ? quoted : { text: block, block: true };
  }
  if (style === "QUOTE_DOUBLE" || value.includes("\n")) return quoted;
  if (style === "QUOTE_SINGLE") {
    return control.test(value) ? quoted : { text: `'${value.replaceAll("'", "''")}'`, block: false };
  }
  if (isBlockStyle && !inFlow) {
    const block = blockScalar({ value, folded: style === "BLOCK_FOLDED", indent: blockIndent, lineBreak });
    if (block !== undefined) return { text: block, block: true };
  }
  return plainReadsBack(value, inFlow) ? { text: value, block: false } : quoted;
}

/** Whether `value` written plain reads back as the same string under YAML 1.2 and 1.1 (`yes`, `on`, `0755` do not). */
function plainReadsBack(value: string, inFlow: boolean): boolean {
  if (value === "" || value.trim() !== value || control.test(value) || value.includes("\t")) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  // kubectl's own reading first: go-yaml v2 takes `0o17`, `1_0` and `y` as non-strings too.
  if (resolvePlainScalar(value).type !== "string") return false;
  return (["1.2", "1.1"] as const).every((version) => {
    const scalar = new Scalar(value);
    scalar.type = "PLAIN";
    return stringify(scalar, { version, lineWidth: 0 }) === `${value}\n`;
  });
}

/**
 * `|`/`>` block text for a value, with the chomping indicator its trailing line breaks need; undefined
 * when a block cannot carry it (empty, a leading space that would read as indentation, control characters).
 * Folded style is kept for one-line values only: folding would turn inner line breaks into spaces.
 */
function blockScalar(params: {
  value: string;
  folded: boolean;
  indent: number;
  lineBreak: string;
}): string | undefined {
  const { value, indent, lineBreak } = params;
  if (control.test(value) || value.includes("\r")) return undefined;
  const trailing = /\n*$/.exec(value)![0].length;
  const body = value.slice(0, value.length - trailing);
  if (body === "" || /^[ \t]/.test(body)) return undefined;
  const lines = body.split("\n");
  const folded = params.folded && lines.length === 1;
  const chomp = trailing === 0 ? "-" : trailing === 1 ? "" : "+";
  const pad = " ".repeat(indent);
  const content = lines.map((line) => (line === "" ? "" : pad + line)).join(lineBreak);
  return `${folded ? ">" : "|"}${chomp}${lineBreak}${content}${lineBreak}${lineBreak.repeat(Math.max(0, trailing - 1))}`;
}
