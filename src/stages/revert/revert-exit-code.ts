// The exit code of a revert that ran: 0 when everything asked for was done, 1
// when something was left undone per object (an error is 2, set elsewhere).
// Orphans left because prune was not asked for were not asked for; health that
// was only reported, not waited for, is news rather than something left undone.
import type { RevertResult } from "../../model/change-set.ts";

export function revertExitCode(result: RevertResult): 0 | 1 {
  const undone = result.resources.some(
    (r) =>
      r.action === "failed" ||
      (r.action === "skipped" && r.guard !== "not-requested") ||
      (r.health?.waited === true && r.health.status !== "healthy"),
  );
  return undone ? 1 : 0;
}
