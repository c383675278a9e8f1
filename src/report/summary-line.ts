// The one line that says how a target stands, shared by the terminal and markdown outputs.
import type { DriftReport } from "../model/types.ts";

/** `infra: 2 drifted, 1 missing, 1 orphaned, 3 in sync`, or `infra: in sync (3 objects)`; zero counts are left out. */
export function summaryLine(report: DriftReport): string {
  const { inSync, drifted, missing, orphaned } = report.summary;
  const problems = report.problems.length;
  const parts: string[] = [];
  if (drifted + missing + orphaned === 0) {
    parts.push(`in sync (${plural(inSync, "object")})`);
  } else {
    if (drifted) parts.push(`${drifted} drifted`);
    if (missing) parts.push(`${missing} missing`);
    if (orphaned) parts.push(`${orphaned} orphaned`);
    if (inSync) parts.push(`${inSync} in sync`);
  }
  // A scan with problems is not a clean bill of health, even when everything it could compare is in sync.
  if (problems) parts.push(plural(problems, "problem"));
  return `${report.target}: ${parts.join(", ")}`;
}

/** `1 object`, `3 objects`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Whether the report has anything a reviewer must look at besides problems. */
export function hasDrift(report: DriftReport): boolean {
  const { drifted, missing, orphaned } = report.summary;
  return drifted + missing + orphaned > 0 || report.resources.some((r) => r.status !== "in-sync");
}
