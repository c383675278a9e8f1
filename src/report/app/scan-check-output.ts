// The check run `undrift/<target>` on the default branch head after a scan:
// the verdict as its title, where to act (tracking issue, pull request) and
// any note in the summary, the markdown report (masked by the engine, capped)
// as its text.
//   success: in sync; failure: drift; neutral: in sync as far as it could compare.

import type { DriftReport } from "../../model/types.ts";
import type { CheckConclusion, CheckRunOutput } from "../check-run-output.ts";
import { renderMarkdown } from "../render-markdown.ts";
import { hasDrift, summaryLine } from "../summary-line.ts";

// Room under GitHub's 65,535 for the note on further parts.
const TEXT_LIMIT = 64_000;

export function scanCheckOutput(params: {
  report: DriftReport;
  mode: string;
  cluster: string;
  /** Lines for the summary: links to the issue or PR, what heal applied, notes. */
  lines: readonly string[];
}): { conclusion: CheckConclusion; output: CheckRunOutput } {
  const { report } = params;
  const conclusion: CheckConclusion = hasDrift(report) ? "failure" : report.problems.length > 0 ? "neutral" : "success";
  const parts = renderMarkdown(report, { maxLength: TEXT_LIMIT });
  const more =
    parts.length > 1
      ? `\n\n_The report continues in ${parts.length - 1} more part(s), cut here for GitHub's limit._`
      : "";
  const summary = [
    `Target \`${report.target}\` on cluster \`${params.cluster}\`, mode \`${params.mode}\`, revision \`${report.revision.slice(0, 12)}\`.`,
    ...(params.lines.length ? ["", ...params.lines] : []),
  ].join("\n");
  return { conclusion, output: { title: summaryLine(report), summary, text: `${parts[0] ?? ""}${more}` } };
}
