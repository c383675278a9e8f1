// The top of a GitHub comment: the verdict, the counts, what could not be
// compared, and one table row per object that needs a look.

import { objectLabel, objectName, sourceLabel } from "../model/object-label.ts";
import { clip } from "../model/one-line.ts";
import type { DriftReport, ResourceReport } from "../model/types.ts";
import { codeSpan, escapeText } from "./markdown-escape.ts";
import { deletionText, whoCell } from "./markdown-who.ts";
import { reconcilerLines } from "./reconciler-lines.ts";
import { chunk, tableBlocks } from "./split-parts.ts";
import { hasDrift, plural } from "./summary-line.ts";

const FIELDS_SHOWN = 3;

/** Blocks of the overview, each at most `budget` characters: long lists and tables are sliced so they can span parts. */
export function markdownOverview(report: DriftReport, budget: number): string[] {
  const target = codeSpan(report.target);
  const revision = codeSpan(report.revision);
  const reconciler = reconcilerLines(report).map((line) => `${escapeText(line, 1_000)}.`);
  const about = reconciler.length > 0 ? [reconciler.join(" ")] : [];
  if (!hasDrift(report)) {
    const total = plural(report.summary.inSync, "object");
    return [
      `### undrift: ${target} is in sync with Git\n\nAll ${total} match revision ${revision}.`,
      ...about,
      ...problemBlocks(report, budget),
    ];
  }
  const { inSync, drifted, missing, orphaned } = report.summary;
  const counts = [
    `### undrift: ${target} has drifted from Git`,
    "",
    `Revision ${revision}.`,
    "",
    "| Status | Count |",
    "| --- | ---: |",
    `| Drifted | ${drifted} |`,
    `| Missing | ${missing} |`,
    `| Orphaned | ${orphaned} |`,
    `| In sync | ${inSync} |`,
  ].join("\n");
  const head = ["| Kind | Object | Status | Source | Fields changed | Who |", "| --- | --- | --- | --- | --- | --- |"];
  const rows = report.resources.filter((r) => r.status !== "in-sync").map(objectRow);
  return [counts, ...about, ...problemBlocks(report, budget), ...tableBlocks(head, rows, budget)];
}

function problemBlocks(report: DriftReport, budget: number): string[] {
  if (report.problems.length === 0) return [];
  const title = `**Could not compare** (${report.problems.length}):`;
  const lines = report.problems.map(
    (p) => `- ${codeSpan(objectLabel(p, { spelling: "resource" }))}: ${escapeText(p.message, 500)}`,
  );
  return chunk(lines, budget - title.length - 2).map((slice) => `${title}\n\n${slice.join("\n")}`);
}

/** A missing or orphaned object differs as a whole, which its change list may not spell out. */
function wholeObject(resource: ResourceReport): string {
  return resource.status === "missing" || resource.status === "orphaned" ? "*whole object*" : "";
}

function objectRow(resource: ResourceReport): string {
  const paths = resource.changes.map((c) => codeSpan(c.path, { table: true, max: 80 }));
  const more = paths.length > FIELDS_SHOWN ? ` and ${paths.length - FIELDS_SHOWN} more` : "";
  // Each writer once: the manager, and the person behind it when the cluster recorded the write.
  const who = [...new Set(resource.changes.map((c) => whoCell(c, 60)).filter((w) => w !== ""))];
  if (resource.deletedBy) who.unshift(deletionText(resource.deletedBy));
  const cells = [
    escapeText(resource.kind),
    codeSpan(objectName(resource), { table: true }),
    resource.status,
    resource.source ? codeSpan(sourceLabel(resource.source), { table: true }) : "",
    paths.length > 0 ? paths.slice(0, FIELDS_SHOWN).join(", ") + more : wholeObject(resource),
    clip(who.join(", "), 400),
  ];
  return `| ${cells.join(" | ")} |`;
}
