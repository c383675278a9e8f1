// The `undrift/preview` check run: the targets table as its summary, the
// targets' sections as its text, and a conclusion that fails the check when
// head does not render, an object would fail to apply or a prune guard refuses,
// so branch protection can stop a merge that would break the target.

import type { PreviewReport, PreviewSummary } from "../../model/preview-report.ts";
import { capText, checkRunTextLimit } from "../markers.ts";
import { blockBudget } from "../split-parts.ts";
import { countsLine, hasChanges } from "./counts-line.ts";
import { leftOutNote } from "./left-out-note.ts";
import { packParts } from "./pack-parts.ts";
import { previewBlocks } from "./preview-blocks.ts";
import { previewOverview } from "./preview-overview.ts";
import type { PreviewInput } from "./types.ts";

export interface PreviewCheck {
  title: string;
  summary: string;
  text: string;
  conclusion: "neutral" | "success" | "failure";
}

const TARGETS_NAMED = 3;

/** Title, summary, text and conclusion of the check run, each within GitHub's check-run limit. */
export function renderPreviewCheck(input: PreviewInput): PreviewCheck {
  const summary = previewOverview(input, blockBudget(checkRunTextLimit)).join("\n\n");
  // The summary already holds the targets table; the text carries the sections, in one part.
  const parts = packParts({
    blocks: previewBlocks({ input, budget: blockBudget(checkRunTextLimit), overview: false }),
    maxLength: checkRunTextLimit,
    maxParts: 1,
    leftOut: (objects, targets) =>
      leftOutNote({
        objects,
        targets,
        why: "a check run's text stops at 65,535 characters",
        where: "The summary counts them; run `undrift preview` for the full report.",
      }),
  });
  return {
    title: capText({ text: title(input), maxLength: checkRunTextLimit }),
    summary: capText({ text: summary, maxLength: checkRunTextLimit }),
    text: capText({ text: parts.join("\n"), maxLength: checkRunTextLimit }),
    conclusion: conclusion(input.previews),
  };
}

/** failure: head does not render, the cluster could not be read, an object would fail to apply, or a guard refused a prune; neutral: the merge changes something. */
function conclusion(previews: PreviewReport[]): PreviewCheck["conclusion"] {
  if (previews.some((p) => failures(p).length > 0)) return "failure";
  return previews.some(changes) ? "neutral" : "success";
}

function failures(report: PreviewReport): string[] {
  const out: string[] = [];
  if (report.status === "render-failed") out.push("head does not render");
  if (report.status === "failed") out.push("could not preview");
  const failing = report.resources.filter((r) => r.fails).length;
  if (failing > 0) out.push(`${failing === 1 ? "an object" : `${failing} objects`} would fail to apply`);
  if (report.pruneRefused || report.summary.refused > 0 || report.prune.some((p) => p.action === "refused")) {
    out.push("prune refused");
  }
  return out;
}

/** From the entries as well as the counts, so a report whose counts lag its entries still reads as a change. */
function changes(report: PreviewReport): boolean {
  return (
    hasChanges(report.summary) ||
    report.resources.some((r) => r.action !== "unchanged") ||
    report.prune.some((p) => p.action === "delete" || p.action === "orphan")
  );
}

function title(input: PreviewInput): string {
  const failed = new Map<string, string[]>();
  for (const report of input.previews) {
    for (const reason of failures(report)) failed.set(reason, [...(failed.get(reason) ?? []), report.target]);
  }
  const pending = input.pending?.length ? ` (${input.pending.length} pending)` : "";
  if (failed.size > 0) {
    const phrases = [...failed].map(([reason, targets]) => `${capitalize(reason)}: ${targetList(targets)}`);
    return phrases.join("; ") + pending;
  }
  const changed = input.previews.filter(changes);
  if (changed.length === 0) return `No changes to the cluster${pending}`;
  const total = sum(changed.map((p) => p.summary));
  return `${countsLine({ ...total, unchanged: 0 })} in ${targetList(changed.map((p) => p.target))}${pending}`;
}

function targetList(targets: string[]): string {
  return targets.length <= TARGETS_NAMED ? targets.join(", ") : `${targets.length} targets`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sum(summaries: PreviewSummary[]): PreviewSummary {
  const total: PreviewSummary = {
    create: 0,
    change: 0,
    unchanged: 0,
    prune: 0,
    orphan: 0,
    keep: 0,
    refused: 0,
    drift: 0,
  };
  for (const s of summaries) for (const key of Object.keys(total) as (keyof PreviewSummary)[]) total[key] += s[key];
  return total;
}
