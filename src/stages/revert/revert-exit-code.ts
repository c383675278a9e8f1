// The exit code of a revert that ran: 0 when everything asked for was done, 1
// when something was left undone per object (an error is 2, set elsewhere).
// Orphans left because prune was not asked for were not asked for, and orphans
// opted out of prune (an annotation, Flux's or Argo CD's opt-out, a rule) were
// asked to stay: as in Flux, whose Kustomization is Ready with them left, a
// revert with or without --prune exits 0 for them. So do orphans another target of
// the repository declares: they are that target's objects, not something left undone. Guards that refused a prune
// (an empty render, maxPrunePercent, a Namespace) are left undone: 1. Health that
// was only reported, not waited for, is news rather than something left undone.
// A revert stopped by Ctrl-C (or SIGTERM) exits 130, 128 + SIGINT, as shells and
// CI runners expect of a command that was interrupted, after its report.
import type { PruneGuard, RevertResult } from "../../model/change-set.ts";

/** Orphans left on purpose: what they ask for is done. */
const askedToStay = new Set<PruneGuard | undefined>(["not-requested", "opted-out", "declared-elsewhere"]);

/** The code of an interrupted revert: 128 + 2 (SIGINT), whichever signal stopped it. */
export const interruptedExitCode = 130;

export function revertExitCode(result: RevertResult): 0 | 1 | typeof interruptedExitCode {
  if (result.interrupted) return interruptedExitCode;
  const undone = result.resources.some(
    (r) =>
      r.action === "failed" ||
      (r.action === "skipped" && !askedToStay.has(r.guard)) ||
      (r.health?.waited === true && r.health.status !== "healthy"),
  );
  return undone ? 1 : 0;
}
