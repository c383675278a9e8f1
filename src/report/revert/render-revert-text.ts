// The terminal output of `undrift revert`, read like `kubectl apply`: a summary
// line, then one line per object with its action, and indented details (fields
// changed, managers taken over, conflicts, health). Names and paths only.

import { styleText } from "node:util";
import { type Action, actions, type ObjectRecord, type RevertResult } from "../../model/change-set.ts";
import type { Health } from "../../model/health.ts";
import { objectLabel } from "../../model/object-label.ts";
import { oneLine } from "../../model/one-line.ts";
import { type ClusterWhere, clusterWhere } from "../cluster-where.ts";

const width = Math.max(...actions.map((a) => a.length)) + 2;

type Style = Parameters<typeof styleText>[0];
type Paint = (style: Style, text: string) => string;

// As kubectl and Flux colour them: what was written green, what was deleted or failed red, what was left yellow.
const actionStyles: Record<Action, Style | undefined> = {
  created: "green",
  configured: "green",
  unchanged: undefined,
  deleted: "red",
  deleting: "red",
  skipped: "yellow",
  failed: "red",
};

/**
 * The result as terminal text, ending with a newline; `color`: ANSI codes, as the caller decided;
 * `cluster`: the context and server written to, named in the summary line.
 */
export function renderRevertText(
  result: RevertResult,
  options: { color?: boolean; cluster?: ClusterWhere } = {},
): string {
  // validateStream: false, because the caller has already decided; styleText would otherwise look at stdout.
  const paint: Paint = (style, text) => (options.color ? styleText(style, text, { validateStream: false }) : text);
  const lines = [paint("bold", oneLine(`${summaryOf(result)}${clusterWhere(options.cluster)}`))];
  for (const record of result.resources) lines.push(...recordLines(record, paint));
  if (result.problems.length > 0) {
    lines.push("", paint("bold", "problems:"));
    for (const p of result.problems)
      lines.push(`! ${oneLine(objectLabel(p, { spelling: "resource" }))}: ${oneLine(p.message)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `shop: 1 created, 2 configured, 3 unchanged` (dry run: `shop (dry run, nothing changed): ...`); zero counts left out. */
export function summaryOf(result: RevertResult): string {
  const counts = actions.filter((a) => result.summary[a] > 0).map((a) => `${result.summary[a]} ${a}`);
  const head = result.dryRun ? `${result.target} (dry run, nothing changed)` : result.target;
  return `${head}: ${counts.length > 0 ? counts.join(", ") : "no objects"}`;
}

function recordLines(record: ObjectRecord, paint: Paint): string[] {
  const reason = record.reason ? `: ${record.reason}` : "";
  const style = actionStyles[record.action];
  const action = style ? paint(style, record.action.padEnd(width)) : record.action.padEnd(width);
  const lines = [`${action}${oneLine(`${objectLabel(record)}${reason}`)}`];
  const indent = " ".repeat(width);
  if (record.changes?.length) lines.push(`${indent}fields: ${record.changes.join(", ")}`);
  if (record.takenFrom?.length) lines.push(`${indent}taken over from: ${record.takenFrom.join(", ")}`);
  for (const c of record.conflicts ?? []) {
    const owner = c.subresource ? `"${c.manager}" (${c.subresource})` : `"${c.manager}"`;
    lines.push(`${indent}conflict: ${c.field} owned by ${owner}`);
  }
  // An unchanged object that is healthy needs no line; anything else applied or judged does.
  const health = record.health;
  if (health && (record.action !== "unchanged" || health.status !== "healthy")) {
    lines.push(`${indent}health: ${healthText(health)}`);
  }
  // The first line's parts were made one line before the colour went on: oneLine would strip its codes.
  return [lines[0]!, ...lines.slice(1).map((line) => oneLine(line))];
}

function healthText(health: Health): string {
  const status = health.status === "not-ready" ? "not ready" : health.status;
  return health.message ? `${status}: ${health.message}` : status;
}
