// The body of a codify pull request: what it changes, the drift report (who
// changed what, when), and every object it could not codify with why. The
// hidden marker with the drift fingerprint is added by ensureDriftPr.

import { objectLabel } from "../../model/object-label.ts";
import type { DriftReport } from "../../model/types.ts";
import type { CodifyResult } from "../../remediate/codify/codify-result.ts";
import { renderMarkdown } from "../render-markdown.ts";

// GitHub's body limit is 65,536; the lists and the marker need room beside the report.
const REPORT_LIMIT = 48_000;

export function codifyPrBody(params: { report: DriftReport; codify: CodifyResult; cluster: string }): string {
  const { report, codify } = params;
  const file = (change: CodifyResult["files"][number]) =>
    `- \`${change.file}\` ${change.before === undefined ? "(new)" : change.after === undefined ? "(removed)" : ""}`.trimEnd();
  const sections = [
    `This pull request edits Git to match what the cluster \`${params.cluster}\` runs for target \`${report.target}\`, so that merging it turns the drift below into declared state. Each edit was proved by rendering the target again. Close it to keep Git as it is; undrift closes it by itself when the drift goes away.`,
    ["**Files changed**", "", ...codify.files.map(file)].join("\n"),
  ];
  if (codify.notCodified.length > 0) {
    sections.push(
      [
        "**Not codified** (left for a person):",
        "",
        ...codify.notCodified.map((n) => `- \`${objectLabel(n)}\`: ${n.reason}`),
        "",
        "Each of them can be reverted or ignored from the boxes of the target's tracking issue, when it has one.",
      ].join("\n"),
    );
  }
  if (codify.problems.length > 0) {
    sections.push(
      [
        "**Not compared, so not codified:**",
        "",
        ...codify.problems.map((p) => `- \`${objectLabel(p, { spelling: "resource" })}\`: ${p.message}`),
      ].join("\n"),
    );
  }
  const parts = renderMarkdown(report, { maxLength: REPORT_LIMIT });
  const more = parts.length > 1 ? `\n\n_The report continues in the check run \`undrift/${report.target}\`._` : "";
  sections.push(`${parts[0] ?? ""}${more}`);
  return sections.join("\n\n");
}
