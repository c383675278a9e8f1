// The one phrase that says what a merge would do to a target, shared by the
// comment, the check run and the terminal so they count alike.
import type { PreviewSummary } from "../../model/preview-report.ts";

/** `1 to create, 2 to change, 1 to delete, 3 unchanged`; zero counts are left out; `nothing to change` when all are zero. */
export function countsLine(summary: PreviewSummary): string {
  const parts: string[] = [];
  if (summary.create) parts.push(`${summary.create} to create`);
  if (summary.change) parts.push(`${summary.change} to change`);
  if (summary.prune) parts.push(`${summary.prune} to delete`);
  if (summary.orphan) parts.push(`${summary.orphan} to orphan`);
  if (summary.refused) parts.push(`${summary.refused} prune refused`);
  if (summary.keep) parts.push(`${summary.keep} kept`);
  if (parts.length === 0) parts.push("nothing to change");
  if (summary.unchanged) parts.push(`${summary.unchanged} unchanged`);
  return parts.join(", ");
}

/** Whether the merge would touch the cluster at all: create, change, delete or orphan. */
export function hasChanges(summary: PreviewSummary): boolean {
  return summary.create + summary.change + summary.prune + summary.orphan > 0;
}
