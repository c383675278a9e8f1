// Markdown from cluster data: names, values and messages are not ours, so they
// must not break a table, open a fence, mention someone or inject HTML.

import { clip, oneLine } from "../model/one-line.ts";

const CELL_MAX = 200;

/** Plain text on one line with markdown/HTML punctuation backslash-escaped (incl. `@` and `#`, so nobody is pinged or linked). */
export function escapeText(text: string, max = CELL_MAX): string {
  return clip(oneLine(text), max).replace(/[\\`*_[\]<>|~&#!$@]/g, "\\$&");
}

/**
 * An inline code span showing `text` verbatim, whatever backticks it holds: the
 * delimiter is longer than any backtick run inside. In a table cell `|` must be
 * escaped even inside code (GFM splits cells first), elsewhere it must not be.
 */
export function codeSpan(text: string, options: { table?: boolean; max?: number } = {}): string {
  let content = clip(oneLine(text), options.max ?? CELL_MAX);
  if (options.table) content = content.replace(/\|/g, "\\|");
  const ticks = "`".repeat(longestRun(content, "`") + 1);
  // A space keeps a leading or trailing backtick from merging into the delimiter; markdown strips it again.
  const pad = content.startsWith("`") || content.endsWith("`") || content === "" ? " " : "";
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

/** A code fence longer than any backtick run in `content` (at least three), so the content cannot close it. */
export function fenceFor(content: string): string {
  return "`".repeat(Math.max(3, longestRun(content, "`") + 1));
}

/** Text for HTML such as `<summary>`, where markdown is not parsed. */
export function escapeHtml(text: string, max = CELL_MAX): string {
  return clip(oneLine(text), max)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
