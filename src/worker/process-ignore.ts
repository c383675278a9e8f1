// An `ignore` job (the tracking issue's ignore box): the target resolved and
// scanned as a scan job does it, then the ticked fields proposed as an
// ignoreDifferences rule on `undrift/ignore/<target>` (modes/ignore/propose-ignore.ts).
// What it came to goes to the audit stream under the person who asked, and
// into the job's result: the pull request, or why there is none.
//   1. the target resolved once (resolve-scan-target.ts)
//   2. the scan on the cluster's shared session
//   3. the proposal: plan, edit, proof, pull request
//   4. the audit entry
//   5. the dashboard tick's line rewritten with the pull request (dashboard/settle-ignore-line.ts)

import type { IgnoreOutcome } from "../modes/ignore/ignore-outcome.ts";
import { proposeIgnore } from "../modes/ignore/propose-ignore.ts";
import type { IgnoreJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import { recordAudit } from "../state/record-audit.ts";
import { settleIgnoreLine } from "./dashboard/settle-ignore-line.ts";
import { ignoreContext } from "./mode-context.ts";
import { resolveScanTarget } from "./resolve-scan-target.ts";
import type { ScanAudit } from "./scan-job-audit.ts";
import { scanOnSharedSession } from "./scan-on-shared-session.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** The audit event of each outcome. */
const EVENTS: Record<IgnoreOutcome["outcome"], string> = {
  created: "ignore-pr-opened",
  updated: "ignore-pr-updated",
  unchanged: "ignore-pr-unchanged",
  refused: "ignore-refused",
  "not-proved": "ignore-not-proved",
};

export async function processIgnore(params: {
  deps: WorkerDeps;
  job: IgnoreJob;
  context: ScanContext;
}): Promise<IgnoreOutcome | { outcome: string; lines: string[] }> {
  const { deps, job } = params;
  const audit = ignoreAudit({ deps, job });

  // 1. The target, as a scan resolves it; a job with nothing to scan ends here.
  const scanJob = { installationId: job.installationId, repo: job.repo, target: job.target, cluster: job.cluster };
  const found = await resolveScanTarget({
    deps,
    job: { ...scanJob, reason: "comment" },
    signal: params.context.signal,
    audit,
  });
  if ("skipped" in found) return { outcome: found.skipped.outcome, lines: found.skipped.actions };
  const { resolved } = found;

  // 2. The scan the ticks are judged on.
  const { scan } = await scanOnSharedSession({ deps, resolved });
  params.context.signal.throwIfAborted();

  // 3. The proposal.
  const ticks = job.items.map((item) => ({ ...item, requestedBy: job.requestedBy }));
  const outcome = await proposeIgnore({ context: ignoreContext({ deps, resolved }), scan, ticks });

  // 4. The audit entry, under who asked.
  await audit({
    event: EVENTS[outcome.outcome],
    cluster: resolved.target.cluster,
    revision: resolved.head.sha,
    outcome: outcome.lines.join(" ") || outcome.outcome,
    ...(outcome.url ? { url: outcome.url } : {}),
    fields: outcome.fields,
    managers: outcome.managers,
  });

  // 5. The dashboard line of the tick that asked, when one did: now naming the pull request, or why there is none.
  await settleIgnoreLine({ deps, job, resolved, outcome });
  return outcome;
}

/** An ignore job that failed for good: said in the audit stream, under who asked. */
export async function reportIgnoreFailure(params: { deps: WorkerDeps; job: IgnoreJob; error: Error }): Promise<void> {
  const { deps, job, error } = params;
  await ignoreAudit({ deps, job })({
    event: "ignore-failed",
    cluster: job.cluster,
    outcome: `failed: ${error.message}`,
  });
}

function ignoreAudit(params: { deps: WorkerDeps; job: IgnoreJob }): ScanAudit {
  const { deps, job } = params;
  return (entry) =>
    recordAudit({
      queues: deps.queues,
      log: deps.log,
      entry: { repo: job.repo, target: job.target, actor: job.requestedBy, ...entry },
    });
}
