// The terminal output of `undrift codify`: a summary line, the files changed
// (or, with --dry-run, their diff first), what was codified where, and every
// object left as it was with why.

import { styleText } from "node:util";
import { objectLabel } from "../../model/object-label.ts";
import type { DriftStatus } from "../../model/types.ts";
import type { CodifyResult } from "../../remediate/codify/codify-result.ts";
import { filesDiff } from "../../remediate/codify/files-diff.ts";
import { type ClusterWhere, clusterWhere } from "../cluster-where.ts";

type Style = Parameters<typeof styleText>[0];

/**
 * `color`: ANSI codes, as the caller decided (TTY, NO_COLOR, FORCE_COLOR, --color); none by default.
 * `cluster`: the context and server read, named in the summary line.
 */
export function renderCodifyText(
  result: CodifyResult,
  options: { dryRun: boolean; color?: boolean; cluster?: ClusterWhere },
): string {
  const { files, codified, notCodified, problems } = result;
  // validateStream: false, because the caller has already decided; styleText would otherwise look at stdout.
  const paint = (style: Style, text: string) =>
    options.color ? styleText(style, text, { validateStream: false }) : text;
  const sections: string[] = [];
  if (options.dryRun && files.length > 0) {
    sections.push(
      filesDiff(files)
        .replace(/\n$/, "")
        .split("\n")
        .map((line) => paintDiffLine(line, paint))
        .join("\n"),
    );
  }
  const verb = options.dryRun ? "would codify" : "codified";
  const summary =
    codified.length + notCodified.length === 0
      ? `target ${result.target}: nothing to codify, Git declares what the cluster runs`
      : `target ${result.target}: ${verb} ${count(codified.length, "object")}, ${notCodified.length} not codified`;
  sections.push(paint("bold", `${summary}${clusterWhere(options.cluster)}`));
  if (files.length > 0) {
    const mark = (f: (typeof files)[number]) => (f.before === undefined ? "A" : f.after === undefined ? "D" : "M");
    sections.push(
      [
        paint("bold", options.dryRun ? "files it would change:" : "files changed:"),
        ...files.map((f) => `  ${mark(f)} ${f.file}`),
      ].join("\n"),
    );
  }
  if (codified.length > 0) {
    const done = { drifted: "edited", missing: "removed from", orphaned: "added as" } as const satisfies Record<
      DriftStatus,
      string
    >;
    sections.push(
      [
        paint("bold", `${verb}:`),
        ...codified.map((c) => `  ${objectLabel(c)}: ${done[c.status]} ${c.files.join(", ")}`),
      ].join("\n"),
    );
  }
  if (notCodified.length > 0) {
    sections.push(
      [
        paint("bold", "not codified:"),
        ...notCodified.map((n) => paint("yellow", `  ${objectLabel(n)}: not codified: ${n.reason}`)),
      ].join("\n"),
    );
  }
  if (problems.length > 0) {
    sections.push(
      [
        paint("bold", "not compared, so not codified:"),
        ...problems.map((p) => `  ! ${objectLabel(p, { spelling: "resource" })}: ${p.message}`),
      ].join("\n"),
    );
  }
  return `${sections.join("\n\n")}\n`;
}

function paintDiffLine(line: string, paint: (style: Style, text: string) => string): string {
  if (line.startsWith("---") || line.startsWith("+++")) return paint("bold", line);
  if (line.startsWith("@@")) return paint("cyan", line);
  if (line.startsWith("-")) return paint("red", line);
  if (line.startsWith("+")) return paint("green", line);
  return line;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
