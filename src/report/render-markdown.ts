// Markdown for GitHub comments and check runs: an overview, then one
// collapsible diff per object, split into parts that each fit GitHub's limit.
import type { DriftReport } from "../model/types.ts";
import { markdownDetails } from "./markdown-details.ts";
import { markdownOverview } from "./markdown-overview.ts";
import { blockBudget, splitParts } from "./split-parts.ts";

export interface RenderMarkdownOptions {
  /** Most characters in one part: GitHub's comment and check-run text limit by default. Leave room for any marker you add. */
  maxLength?: number;
}

/** Below this a part cannot hold an object's summary and a table row with room to spare. */
const MIN_LENGTH = 4096;

/** The report as one or more markdown parts, in order, each at most `maxLength` characters. */
export function renderMarkdown(report: DriftReport, options: RenderMarkdownOptions = {}): string[] {
  const maxLength = options.maxLength ?? 65_536;
  if (maxLength < MIN_LENGTH) throw new RangeError(`maxLength must be at least ${MIN_LENGTH}, got ${maxLength}`);
  const budget = blockBudget(maxLength);
  const blocks = markdownOverview(report, budget);
  for (const resource of report.resources) {
    if (resource.status !== "in-sync") blocks.push(markdownDetails(resource, budget));
  }
  return splitParts(blocks, maxLength);
}
