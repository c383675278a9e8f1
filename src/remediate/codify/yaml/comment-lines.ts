// Full-line comments inside a span of YAML text, found by the YAML lexer (so
// `#!/bin/sh` in a block scalar is content, not a comment). A removed entry
// gives them back: codify deletes values, never a person's prose.
import { Lexer } from "yaml";
import { atLineStart, lineStart, nextLineStart } from "./text-lines.ts";

/** The lines in [from, to) that hold only a comment, joined as they stand (with their line breaks). */
export function commentLinesIn(text: string, from: number, to: number): string {
  let offset = 0;
  let out = "";
  for (const token of new Lexer().lex(text)) {
    // Control characters mark token kinds and take no room in the source.
    if (token.length === 1 && token.charCodeAt(0) < 0x20 && token !== "\n" && token !== "\t") continue;
    const start = offset;
    offset += token.length;
    if (start < from || start >= to || !token.startsWith("#") || !atLineStart(text, start)) continue;
    out += text.slice(lineStart(text, start), nextLineStart(text, start));
  }
  return out;
}
