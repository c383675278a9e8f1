// The terminal output of `undrift revert`, read like `kubectl apply`: a summary
// line, then one line per object with its action, and indented details (fields
// changed, managers taken over, conflicts, health). Names and paths only.

import { actions, type ObjectRecord, type RevertResult } from "../../model/change-set.ts";
import type { Health } from "../../model/health.ts";
import { objectLabel } from "../../model/object-label.ts";
import { oneLine } from "../../model/one-line.ts";

const width = Math.max(...actions.map((a) => a.length)) + 2;

/** The result as terminal text, ending with a newline. */
export function renderRevertText(result: RevertResult): string {
  const lines = [oneLine(summaryOf(result))];
  for (const record of result.resources) lines.push(...recordLines(record));
  if (result.problems.length > 0) {
    lines.push("", "problems:");
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

function recordLines(record: ObjectRecord): string[] {
  const reason = record.reason ? `: ${record.reason}` : "";
  const lines = [`${record.action.padEnd(width)}${objectLabel(record)}${reason}`];
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
  return lines.map((line) => oneLine(line));
}

function healthText(health: Health): string {
  const status = health.status === "not-ready" ? "not ready" : health.status;
  return health.message ? `${status}: ${health.message}` : status;
}
