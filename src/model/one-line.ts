// Text that is not ours (names, values and messages from the cluster, a
// repository or a tool) made one line before a person sees it: on a terminal,
// in Markdown, on stderr. Every renderer and front end uses this one copy.

/** C0 and C1 control characters, line breaks and tabs included: what can move a cursor or recolour a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;

export interface OneLineOptions {
  /**
   * What goes:
   *   controls (the default): every run of control characters becomes one space, so the text cannot
   *     move the cursor or recolour the terminal (cluster and repository text in reports);
   *   breaks: only line breaks go, each with the white space around it folded to one space, and the
   *     ends are trimmed; tabs and spacing inside a line stay (an error message: API and tool
   *     messages span lines, and their own spacing is part of them).
   */
  fold?: "controls" | "breaks";
  /** At most this many characters, the last an ellipsis when cut. */
  max?: number;
}

export function oneLine(text: string, options: OneLineOptions = {}): string {
  const line = options.fold === "breaks" ? text.replace(/\s*\n\s*/g, " ").trim() : text.replace(CONTROLS, " ");
  return options.max === undefined ? line : clip(line, options.max);
}

/** `text` cut to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
