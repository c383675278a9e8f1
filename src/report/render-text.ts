// The terminal report of `undrift scan`, read like `kubectl diff`: a summary
// line, then per object a header, the YAML diff and who changed which field.
import { styleText } from "node:util";
import { objectLabel, sourceLabel } from "../model/object-label.ts";
import { oneLine } from "../model/one-line.ts";
import type { DriftReport, ResourceReport } from "../model/types.ts";
import { type ClusterWhere, clusterWhere } from "./cluster-where.ts";
import { describeDeletion } from "./describe-actor.ts";
import { describeChange } from "./describe-change.ts";
import { reconcilerLines } from "./reconciler-lines.ts";
import { summaryLine } from "./summary-line.ts";
import { unifiedDiff } from "./unified-diff.ts";

export interface RenderTextOptions {
  /** Colour with ANSI codes; the caller decides (TTY, NO_COLOR, --color), this module never guesses. */
  color: boolean;
  /** The kubeconfig context and API server compared with, named in the header as `flux diff` and `kubectl -v` let one see. */
  cluster?: ClusterWhere;
}

type Style = Parameters<typeof styleText>[0];

/** The report as terminal text, ending with a newline. */
export function renderText(report: DriftReport, options: RenderTextOptions): string {
  // validateStream: false, because the caller has already decided; styleText would otherwise look at stdout.
  const paint = (style: Style, text: string) =>
    options.color ? styleText(style, text, { validateStream: false }) : text;
  const where = clusterWhere(options.cluster);
  const sections: string[][] = [
    [paint("bold", oneLine(`${summaryLine(report)}${where}`)), ...reconcilerLines(report).map((l) => oneLine(l))],
  ];
  for (const resource of report.resources) {
    if (resource.status !== "in-sync") sections.push(resourceLines(resource, paint));
  }
  if (report.problems.length > 0) {
    sections.push([
      paint("bold", "problems:"),
      ...report.problems.map((p) => `! ${oneLine(objectLabel(p, { spelling: "resource" }))}: ${oneLine(p.message)}`),
    ]);
  }
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function resourceLines(resource: ResourceReport, paint: (style: Style, text: string) => string): string[] {
  const from = resource.source ? ` (${sourceLabel(resource.source)})` : "";
  const lines = [paint("bold", oneLine(`${resource.status}: ${objectLabel(resource)}${from}`))];
  if (resource.deletedBy) lines.push(`  ${oneLine(describeDeletion(resource.deletedBy))}`);
  for (const line of unifiedDiff(resource)) lines.push(paintDiffLine(line, paint));
  for (const change of resource.changes) lines.push(`  ${oneLine(describeChange(change))}`);
  return lines;
}

function paintDiffLine(line: string, paint: (style: Style, text: string) => string): string {
  if (line.startsWith("---") || line.startsWith("+++")) return paint("bold", line);
  if (line.startsWith("@@")) return paint("cyan", line);
  if (line.startsWith("-")) return paint("red", line);
  if (line.startsWith("+")) return paint("green", line);
  return line;
}
