// Offsets in YAML text by line: edits are spliced at line boundaries so the
// lines around them stay byte-for-byte as they were (CRLF included).

/** Offset of the first character of the line holding `pos`. */
export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** Offset just after the line break that ends the line holding `pos`; the text's end when no break follows. */
export function nextLineStart(text: string, pos: number): number {
  const br = text.indexOf("\n", pos);
  return br < 0 ? text.length : br + 1;
}

/** Column (0-based) of `pos` in its line. */
export function column(text: string, pos: number): number {
  return pos - lineStart(text, pos);
}

/** Whether only spaces stand between the line's start and `pos`. */
export function atLineStart(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
}

/** The file's line break: CRLF when its first line ends so, else LF. */
export function lineBreakOf(text: string): "\n" | "\r\n" {
  const br = text.indexOf("\n");
  return br > 0 && text[br - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * Moves `pos` (a line start) past the comment lines that follow it indented deeper than `indent`:
 * they belong to the entry above, so a new sibling goes after them.
 */
export function skipDeeperComments(text: string, pos: number, indent: number): number {
  let at = pos;
  while (at < text.length) {
    const end = nextLineStart(text, at);
    const match = /^([ ]*)#/.exec(text.slice(at, end));
    if (!match || match[1]!.length <= indent) break;
    at = end;
  }
  return at;
}
