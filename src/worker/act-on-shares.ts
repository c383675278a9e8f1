// The modes' actions, each on its share of a scan's report (the target's mode,
// or the first matching rule's per object, see mode-shares.ts): warn (tracking
// issue), codify (pull request), revert (pull request with a record file; a
// merge job applies it, see process-revert-merge.ts), heal (Git applied at
// once, then the tracking issue says what was healed and pruned; fights stop
// healing, see heal-drift.ts). Each share goes to its mode's handler
// (modes/mode-handlers.ts): its plan, then its act, all with one context.
import type { Mode } from "../config/schema.ts";
import { summarize } from "../drift/summarize.ts";
import type { KubeClient } from "../live/kube-client.ts";
import type { DriftReport } from "../model/types.ts";
import type { ModeContext, ModeHandler } from "../modes/mode-handler.ts";
import { modeHandlers, type PlanOf } from "../modes/mode-handlers.ts";
import type { ModeResult } from "../modes/mode-result.ts";
import { type ModeShare, modeShares } from "../plan/mode-shares.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";
import { ignoreFight } from "./ignore-fight.ts";
import { modeContext } from "./mode-context.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What every mode did, joined, and the shares it was done on (for the check run). */
export async function actOnShares(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
  scan: ScanResult;
  /** The client of the session the scan ran on. */
  client: KubeClient;
}): Promise<{ mode: ModeResult; shares: ModeShare<ScanResult>[] }> {
  const { deps, scan, client, resolved } = params;
  const { report } = scan;
  const shares = modeShares(scan);
  // Warn and heal both report on the one tracking issue: it shows both shares.
  const issueShares = shares.filter((s) => s.mode === "warn" || s.mode === "heal");
  const issueReport =
    issueShares.length > 1
      ? joinShares(
          report,
          issueShares.map((s) => s.scan.report),
        )
      : issueShares[0]?.scan.report;
  const context = modeContext({
    deps,
    resolved,
    scan,
    client,
    shares,
    issueReport,
    ignoreFights: (fought) => ignoreFight({ deps, resolved, scan, fought }),
  });
  const results: ModeResult[] = [];
  for (const share of shares) {
    const result = await actOnShare(share.mode, share, context);
    if (result) results.push(result);
  }
  const mode: ModeResult = { done: results.flatMap((r) => r.done), lines: results.flatMap((r) => r.lines) };
  return { mode, shares };
}

/** One share through its mode's handler: the plan, then the act; nothing when the plan is to do nothing. */
async function actOnShare<M extends Mode>(
  mode: M,
  share: ModeShare<ScanResult>,
  context: ModeContext,
): Promise<ModeResult | undefined> {
  const handler: ModeHandler<PlanOf<M>> = modeHandlers[mode];
  const plan = handler.plan(share, context);
  return plan === undefined ? undefined : handler.act(plan, context);
}

/** One report of several shares of it: their objects, in the scan's order. */
function joinShares(report: DriftReport, parts: DriftReport[]): DriftReport {
  const kept = new Set(parts.flatMap((p) => p.resources));
  const resources = report.resources.filter((r) => kept.has(r));
  return { ...report, resources, ...summarize(resources) };
}
