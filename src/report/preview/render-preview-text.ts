// The terminal output of `undrift preview`, read like `kubectl diff`: a line
// saying what the merge would do, then per created or changed object its
// fields (head's value against the cluster's) and the YAML diff, the prune
// with each action and reason, the drift the cluster has now, and problems.
import { styleText } from "node:util";
import { objectLabel, sourceLabel } from "../../model/object-label.ts";
import { clip, oneLine } from "../../model/one-line.ts";
import {
  type PreviewReport,
  type PreviewResource,
  type PrunePreview,
  previewFinding,
} from "../../model/preview-report.ts";
import { type ClusterWhere, clusterWhere } from "../cluster-where.ts";
import { plural } from "../summary-line.ts";
import { unifiedDiff } from "../unified-diff.ts";
import { countsLine } from "./counts-line.ts";
import { errorLocation } from "./error-location.ts";
import { shortRevision } from "./short-revision.ts";

export interface RenderPreviewTextOptions {
  /** Colour with ANSI codes; the caller decides (TTY, NO_COLOR, --color), this module never guesses. */
  color?: boolean;
  /** The kubeconfig context and server compared with, named in the first line. */
  cluster?: ClusterWhere;
}

type Style = Parameters<typeof styleText>[0];
type Paint = (style: Style, text: string) => string;

const VALUE_MAX = 200;

const APPLY: Record<Exclude<PreviewResource["action"], "unchanged">, { mark: string; style: Style }> = {
  create: { mark: "+ create", style: ["green", "bold"] },
  change: { mark: "~ change", style: ["yellow", "bold"] },
};

const PRUNE: Record<PrunePreview["action"], { mark: string; style: Style }> = {
  delete: { mark: "- delete", style: "red" },
  orphan: { mark: "? orphan", style: "yellow" },
  keep: { mark: "= keep", style: "dim" },
  refused: { mark: "! refused", style: ["red", "bold"] },
};

/** The preview as terminal text, ending with a newline. */
export function renderPreviewText(report: PreviewReport, options: RenderPreviewTextOptions = {}): string {
  // validateStream: false, because the caller has already decided; styleText would otherwise look at stdout.
  const paint: Paint = (style, text) => (options.color ? styleText(style, text, { validateStream: false }) : text);
  const where = `${report.target} on ${report.cluster} (${shortRevision(report.base)} → ${shortRevision(report.head)})`;
  if (report.status !== "previewed") {
    const what = report.status === "render-failed" ? "head does not render" : "could not preview";
    const at = report.error && errorLocation(report.error);
    const message = report.error?.message ?? "no reason given";
    return `${paint("bold", oneLine(`${where}: ${what}${clusterWhere(options.cluster)}`))}\n${paint("red", `error: ${at ? `${oneLine(at)}: ` : ""}${safe(message)}`)}\n`;
  }
  const sections: string[][] = [
    [paint("bold", oneLine(`${where}: ${countsLine(report.summary)}${clusterWhere(options.cluster)}`))],
  ];
  for (const resource of report.resources) {
    if (resource.action !== "unchanged") sections.push(resourceLines(resource, paint));
  }
  if (report.prune.length > 0 || report.pruneRefused) sections.push(pruneLines(report, paint));
  sections.push([driftLine(report)]);
  if (report.problems.length > 0) {
    sections.push([
      paint("bold", "problems:"),
      ...report.problems.map((p) => `! ${oneLine(objectLabel(p, { spelling: "resource" }))}: ${oneLine(p.message)}`),
    ]);
  }
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function resourceLines(resource: PreviewResource, paint: Paint): string[] {
  const from = resource.source ? ` (${sourceLabel(resource.source)})` : "";
  const { mark, style } = APPLY[resource.action === "create" ? "create" : "change"];
  const lines = [paint(style, oneLine(`${mark}: ${objectLabel(resource)}${from}`))];
  if (resource.fails) lines.push(paint(["red", "bold"], `  ! would fail: ${oneLine(resource.fails)}`));
  if (resource.note) lines.push(`  note: ${oneLine(resource.note)}`);
  for (const change of resource.changes) {
    lines.push(`  ${oneLine(change.path)}: ${value(change.live)} → ${value(change.desired)}`);
  }
  const diff = unifiedDiff({ ...resource, status: previewFinding(resource.action) });
  for (const line of diff) lines.push(paintDiffLine(line, paint));
  return lines;
}

function pruneLines(report: PreviewReport, paint: Paint): string[] {
  const lines = [paint("bold", "prune:")];
  if (report.pruneRefused) lines.push(paint(["red", "bold"], `! prune refused: ${oneLine(report.pruneRefused)}`));
  for (const entry of report.prune) {
    const { mark, style } = PRUNE[entry.action];
    const why = [entry.reason, entry.guard && `guard ${entry.guard}`].filter(Boolean).join("; ");
    lines.push(paint(style, oneLine(`${mark}: ${objectLabel(entry)}${why ? ` (${why})` : ""}`)));
  }
  return lines;
}

function driftLine(report: PreviewReport): string {
  const base = shortRevision(report.base);
  if (report.baseError) return `drift now: unknown: ${oneLine(report.baseError)}`;
  if (!report.drift) return "drift now: none known, base does not declare this target";
  if (report.summary.drift === 0) return `drift now: the cluster matches base ${base}`;
  const byStatus = (["drifted", "missing", "orphaned"] as const)
    .map((s) => [s, report.drift?.summary[s] ?? 0] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `drift now: the cluster already differs from base ${base}: ${plural(report.summary.drift, "object")} (${byStatus.join(", ")})`;
}

/** A field's value as JSON (`"info"` vs `3`), cut to one readable line; a side that does not set it says so. */
function value(v: unknown): string {
  return v === undefined ? "(not set)" : clip(oneLine(JSON.stringify(v)), VALUE_MAX);
}

function paintDiffLine(line: string, paint: Paint): string {
  if (line.startsWith("---") || line.startsWith("+++")) return paint("bold", line);
  if (line.startsWith("@@")) return paint("cyan", line);
  if (line.startsWith("-")) return paint("red", line);
  if (line.startsWith("+")) return paint("green", line);
  return line;
}

/** A multi-line message (a render error) with its lines kept but control characters out. */
function safe(text: string): string {
  return text
    .split("\n")
    .map((line) => oneLine(line))
    .join("\n");
}
