// The terminal output of `undrift codify`: a summary line, the files changed
// (or, with --dry-run, their diff first), what was codified where, and every
// object left as it was with why.

import { objectLabel } from "../../model/object-label.ts";
import type { DriftStatus } from "../../model/types.ts";
import type { CodifyResult } from "../../remediate/codify/codify-result.ts";
import { filesDiff } from "../../remediate/codify/files-diff.ts";

export function renderCodifyText(result: CodifyResult, options: { dryRun: boolean }): string {
  const { files, codified, notCodified, problems } = result;
  const sections: string[] = [];
  if (options.dryRun && files.length > 0) sections.push(filesDiff(files).replace(/\n$/, ""));
  const verb = options.dryRun ? "would codify" : "codified";
  const summary =
    codified.length + notCodified.length === 0
      ? `target ${result.target}: nothing to codify, Git declares what the cluster runs`
      : `target ${result.target}: ${verb} ${count(codified.length, "object")}, ${notCodified.length} not codified`;
  sections.push(summary);
  if (files.length > 0) {
    const mark = (f: (typeof files)[number]) => (f.before === undefined ? "A" : f.after === undefined ? "D" : "M");
    sections.push(
      [
        options.dryRun ? "files it would change:" : "files changed:",
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
      [`${verb}:`, ...codified.map((c) => `  ${objectLabel(c)}: ${done[c.status]} ${c.files.join(", ")}`)].join("\n"),
    );
  }
  if (notCodified.length > 0) {
    sections.push(
      ["not codified:", ...notCodified.map((n) => `  ${objectLabel(n)}: not codified: ${n.reason}`)].join("\n"),
    );
  }
  if (problems.length > 0) {
    sections.push(
      [
        "not compared, so not codified:",
        ...problems.map((p) => `  ! ${objectLabel(p, { spelling: "resource" })}: ${p.message}`),
      ].join("\n"),
    );
  }
  return `${sections.join("\n\n")}\n`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
