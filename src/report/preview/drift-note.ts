// How far the cluster already is from the pull request's base, so a reviewer
// can tell the changes this PR makes from drift that was there before. Objects
// are listed with their changed fields, not diffed: the drift report has the
// diffs, and here they would crowd out the PR's own changes.

import { objectLabel } from "../../model/object-label.ts";
import type { PreviewReport } from "../../model/preview-report.ts";
import { whoAndWhen } from "../describe-actor.ts";
import { codeSpan, escapeHtml, escapeText } from "../markdown-escape.ts";
import { deletionText } from "../markdown-who.ts";
import { plural } from "../summary-line.ts";
import { shortRevision } from "./short-revision.ts";

const FIELDS_SHOWN = 3;

/** A collapsible list of the objects that differ from base now, at most `budget` characters; undefined without drift. */
export function driftNote(report: PreviewReport, budget: number): string | undefined {
  const drift = report.drift;
  if (!drift || report.summary.drift === 0) return undefined;
  const base = escapeHtml(shortRevision(report.base));
  const lines = drift.resources
    .filter((r) => r.status !== "in-sync")
    .map((r) => {
      // Each field with the person behind it when the cluster recorded the write: drift-now is where a
      // reviewer asks "who changed this, and is it why the PR exists?".
      const paths = r.changes
        .slice(0, FIELDS_SHOWN)
        .map((c) => codeSpan(c.path, { max: 80 }) + (c.actor ? ` ${escapeText(`by ${whoAndWhen(c.actor)}`)}` : ""));
      const more = r.changes.length > FIELDS_SHOWN ? ` and ${r.changes.length - FIELDS_SHOWN} more` : "";
      const deleted = r.deletedBy ? ` (${deletionText(r.deletedBy)})` : "";
      return `- ${r.status} ${codeSpan(objectLabel(r))}${deleted}${paths.length > 0 ? `: ${paths.join(", ")}${more}` : ""}`;
    });
  const head = [
    `<details><summary>The cluster already differs from base <code>${base}</code>: ${plural(report.summary.drift, "object")}</summary>`,
    "",
    "Not made by this pull request: where head still declares a drifted field, the change below includes it.",
    "",
    "",
  ].join("\n");
  const tail = "\n\n</details>";
  // Lines are kept while they fit, with room for the line that says how many were not.
  const room = budget - head.length - tail.length - 80;
  let size = 0;
  let kept = 0;
  while (kept < lines.length && size + lines[kept]!.length + 1 <= room) size += lines[kept++]!.length + 1;
  const cut = kept < lines.length ? `\n- *… and ${lines.length - kept} more*` : "";
  return head + lines.slice(0, kept).join("\n") + cut + tail;
}
