// The top of the preview comment: the head commit, then one table row per
// target with what the merge would do there, so every target is counted even
// when its details do not fit.
import type { PreviewReport } from "../../model/preview-report.ts";
import { codeSpan } from "../markdown-escape.ts";
import { tableBlocks } from "../split-parts.ts";
import { plural } from "../summary-line.ts";
import { hasChanges } from "./counts-line.ts";
import { shortRevision } from "./short-revision.ts";
import type { PreviewInput } from "./types.ts";

const HEAD = [
  "| Target | Cluster | Create | Change | Unchanged | Prune | Drift | Status |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
];

/** The heading and the targets table, sliced so each block fits `budget`. */
export function previewOverview(input: PreviewInput, budget: number): string[] {
  const heading = `### undrift preview for ${codeSpan(shortRevision(input.head))}`;
  const unchanged = input.unchanged ?? [];
  const pending = input.pending ?? [];
  if (input.previews.length + unchanged.length + pending.length === 0) {
    return [`${heading}\n\nThis pull request changes no target's render: merging it leaves the cluster as it is.`];
  }
  const rows = [
    ...input.previews.map(previewRow),
    ...unchanged.map((t) => emptyRow(t, "same render in base and head")),
    ...pending.map((t) => emptyRow(t, "pending")),
  ];
  const intro = [
    `${heading}\n\nWhat merging this pull request would do to each target's cluster (${plural(rows.length, "target")}).`,
    ...behindNote(input.behindBy),
  ].join("\n\n");
  return [intro, ...tableBlocks(HEAD, rows, budget)];
}

/** Said when the base branch moved on: its newer changes are in the cluster but not in head. */
function behindNote(behindBy: number | undefined): string[] {
  if (!behindBy) return [];
  return [
    `> [!NOTE]\n> This branch is ${plural(behindBy, "commit")} behind its base branch. The preview compares head as it is, so a change that landed on the base branch since shows here as if this merge undid it (and as drift against base). Merge or rebase the base branch in for an exact preview.`,
  ];
}

function previewRow(report: PreviewReport): string {
  const name = [codeSpan(report.target, { table: true }), codeSpan(report.cluster, { table: true })];
  if (report.status !== "previewed") {
    const status = report.status === "render-failed" ? "**render failed**" : "**error**";
    return `| ${[...name, "–", "–", "–", "–", "–", status].join(" | ")} |`;
  }
  const { create, change, unchanged, prune, drift } = report.summary;
  const driftCell = report.drift ? String(drift) : report.baseError ? "?" : "–";
  const cells = [...name, create, change, unchanged, prune, driftCell, statusCell(report)];
  return `| ${cells.join(" | ")} |`;
}

function statusCell(report: PreviewReport): string {
  const { summary } = report;
  const notes: string[] = [];
  const failing = report.resources.filter((r) => r.fails).length;
  if (failing > 0) notes.push(`**${failing} would fail**`);
  if (report.pruneRefused || summary.refused > 0) notes.push("**prune refused**");
  if (summary.orphan > 0) notes.push(`${summary.orphan} would be orphaned`);
  if (summary.keep > 0) notes.push(`${summary.keep} kept`);
  if (report.problems.length > 0) notes.push(plural(report.problems.length, "problem"));
  if (report.baseError) notes.push("drift against base unknown");
  if (notes.length === 0) notes.push(hasChanges(summary) ? "changes" : "no changes");
  return notes.join(", ");
}

function emptyRow(target: string, status: string): string {
  return `| ${[codeSpan(target, { table: true }), "", "", "", "", "", "", status].join(" | ")} |`;
}
