// `undrift audit` output: one line per entry (time, repository, target@cluster,
// event, actor, outcome), then what it touched and who in the cluster wrote it,
// indented, so that grep finds an entry by repository, event or person and a
// person reads what changed.
import type { AuditRecord } from "../state/audit-log.ts";

/** The records as text, oldest first, ending in a newline; a line saying so when there are none. */
export function formatAudit(records: readonly AuditRecord[]): string {
  if (records.length === 0) return "no audit entries\n";
  const lines: string[] = [];
  for (const record of records) {
    const where = record.target ? `${record.target}@${record.cluster ?? "?"}` : (record.cluster ?? "-");
    const at = record.revision ? ` at ${record.revision.slice(0, 12)}` : "";
    lines.push(`${record.time}  ${record.repo}  ${where}  ${record.event}  by ${record.actor}: ${record.outcome}${at}`);
    if (record.objects.length > 0) lines.push(`    objects:  ${record.objects.join(", ")}`);
    if (record.fields.length > 0) lines.push(`    fields:   ${record.fields.join(", ")}`);
    if (record.managers.length > 0) lines.push(`    managers: ${record.managers.join(", ")}`);
    // One writer a line: each names its field, its person and its time, too long to share a line.
    for (const writer of record.writers) lines.push(`    writer:   ${writer}`);
    if (record.url) lines.push(`    ${record.url}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `--output json`: one array of the records, oldest first (`[]` when there are none), each with
 * the fields an entry has (`id`, `time`, `event`, `repo`, `actor`, `outcome`, the `objects`,
 * `fields`, `managers` and `writers` lists, and `target`, `cluster`, `revision`, `url` when known).
 */
export function formatAuditJson(records: readonly AuditRecord[]): string {
  return `${JSON.stringify(records, null, 2)}\n`;
}
