// A new manifest's YAML: block style, two-space indent, strings quoted only
// where YAML 1.1 or 1.2 would read them as something else.
import { renderBlockLines } from "./yaml/render-value.ts";

export function manifestText(value: Record<string, unknown>, lineBreak: "\n" | "\r\n" = "\n"): string {
  return renderBlockLines(value, 0, { unit: 2, indentSeq: true, lineBreak }).join(lineBreak) + lineBreak;
}
