// One target's section of the preview: what the merge would do, why it cannot
// be previewed or pruned, what is already drifted, then one block per created
// or changed object. Unchanged objects are only counted.

import { objectLabel } from "../../model/object-label.ts";
import { clip } from "../../model/one-line.ts";
import type { PreviewReport } from "../../model/preview-report.ts";
import { codeSpan, escapeText, fenceFor } from "../markdown-escape.ts";
import { chunk } from "../split-parts.ts";
import { countsLine } from "./counts-line.ts";
import { driftNote } from "./drift-note.ts";
import { errorLocation } from "./error-location.ts";
import { previewDetails } from "./preview-details.ts";
import { pruneTable } from "./prune-table.ts";
import { shortRevision } from "./short-revision.ts";
import type { PreviewBlock } from "./types.ts";

/** A render error longer than this (or than half the block) is cut: its first lines say what is wrong. */
const ERROR_MAX = 4000;
/** Reasons are escaped after this cut, which may double them; the headline must fit the smallest block. */
const REASON_MAX = 500;

/** The blocks of one target's section, each at most `budget` characters. */
export function targetBlocks(report: PreviewReport, budget: number): PreviewBlock[] {
  const target = report.target;
  const blocks: PreviewBlock[] = [{ render: () => headline(report, budget), rank: 0, objects: 0, target }];
  if (report.status !== "previewed") return blocks;
  blocks.push(...problemBlocks(report, budget));
  blocks.push(...pruneTable({ target, prune: report.prune, budget }));
  const drift = driftNote(report, budget);
  if (drift) blocks.push({ render: () => drift, rank: 1, objects: 0, target });
  for (const resource of report.resources) {
    if (resource.action === "unchanged") continue;
    blocks.push({ render: () => previewDetails(resource, budget), rank: 2, objects: 1, target });
  }
  return blocks;
}

/** The section's heading, its counts or its error, the prune refusal and where the drift stands. */
function headline(report: PreviewReport, budget: number): string {
  const out = [`#### ${codeSpan(report.target)} on cluster ${codeSpan(report.cluster)}`, ""];
  const revisions = `Base ${codeSpan(shortRevision(report.base))} → head ${codeSpan(shortRevision(report.head))}`;
  if (report.status !== "previewed") {
    const what = report.status === "render-failed" ? "Head does not render" : "Could not preview";
    const at = report.error && errorLocation(report.error);
    out.push(`${revisions}. **${what}**${at ? ` at ${codeSpan(at)}` : ""}:`, "");
    const message = clip(report.error?.message ?? "no reason given", Math.min(ERROR_MAX, Math.floor(budget / 2)));
    const fence = fenceFor(message);
    out.push(`${fence}text`, message, fence);
    return out.join("\n");
  }
  out.push(`${revisions}: ${countsLine(report.summary)}.`);
  if (report.pruneRefused) {
    out.push("", `**Prune refused**: ${escapeText(report.pruneRefused, REASON_MAX)}. Nothing would be deleted.`);
  } else if (report.summary.refused > 0) {
    out.push("", `**Prune refused** for ${report.summary.refused} of the objects below: a guard stops them.`);
  }
  if (report.baseError) {
    out.push("", `The cluster's drift from base is unknown: ${escapeText(report.baseError, REASON_MAX)}`);
  } else if (!report.drift) {
    out.push("", "New target: base does not declare it.");
  } else if (report.summary.drift === 0) {
    out.push("", `The cluster matches base ${codeSpan(shortRevision(report.base))}.`);
  }
  return out.join("\n");
}

/** What the head scan could not compare, which the counts above therefore miss. */
function problemBlocks(report: PreviewReport, budget: number): PreviewBlock[] {
  if (report.problems.length === 0) return [];
  const title = `**Could not compare** (${report.problems.length}):`;
  const lines = report.problems.map(
    (p) => `- ${codeSpan(objectLabel(p, { spelling: "resource" }))}: ${escapeText(p.message, 500)}`,
  );
  return chunk(lines, budget - title.length - 2).map((slice) => ({
    render: () => `${title}\n\n${slice.join("\n")}`,
    rank: 1,
    objects: 0,
    target: report.target,
  }));
}
