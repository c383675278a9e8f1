// The modes' actions, each on its share of a scan's report (the target's mode,
// or the first matching rule's per object, see mode-shares.ts): warn (tracking
// issue), codify (pull request), revert (pull request with a record file; a
// merge job applies it, see process-revert-merge.ts), heal (Git applied at
// once, then the tracking issue says what was healed and pruned; fights stop
// healing, see heal-drift.ts).
import { summarize } from "../drift/summarize.ts";
import type { DriftReport } from "../model/types.ts";
import { codifyDrift } from "../modes/codify/codify-drift.ts";
import { healDrift } from "../modes/heal/heal-drift.ts";
import type { ModeResult } from "../modes/mode-result.ts";
import { revertDrift } from "../modes/revert/revert-drift.ts";
import { warnDrift } from "../modes/warn/warn-drift.ts";
import { type ModeShare, modeShares } from "../plan/mode-shares.ts";
import { keptLive } from "../plan/revert/kept-live.ts";
import type { FoughtObject } from "../report/app/heal-sections.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";
import { ignoreFight } from "./ignore-fight.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What every mode did, joined, and the shares it was done on (for the check run). */
export async function actOnShares(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
  scan: ScanResult;
}): Promise<{ mode: ModeResult; shares: ModeShare<ScanResult>[] }> {
  const { deps, scan } = params;
  const { reads, owner, repo, head, repoDir, config, target } = params.resolved;
  const { report } = scan;
  const cluster = target.cluster;
  const shares = modeShares(scan);
  const shareOf = (mode: string) => shares.find((s) => s.mode === mode);
  // Warn and heal both report on the one tracking issue: it shows both shares.
  const issueShares = shares.filter((s) => s.mode === "warn" || s.mode === "heal");
  const issueReport =
    issueShares.length > 1
      ? joinShares(
          report,
          issueShares.map((s) => s.scan.report),
        )
      : issueShares[0]?.scan.report;
  const base = { branch: head.branch, sha: head.sha, treeSha: head.treeSha };
  const results: ModeResult[] = [];
  for (const share of shares) {
    if (share.mode === "codify") {
      results.push(
        await codifyDrift({
          octokit: reads,
          owner,
          repo,
          scan: share.scan,
          repoDir,
          cluster,
          base,
          pullRequests: config.pullRequests,
        }),
      );
    } else if (share.mode === "revert") {
      const pullRequests = config.pullRequests;
      const { report } = share.scan;
      const kept = keptLive(share.scan);
      results.push(await revertDrift({ octokit: reads, owner, repo, report, kept, cluster, base, pullRequests }));
    } else if (share.mode === "heal") {
      const ignoreFights = (fought: FoughtObject[]) => ignoreFight({ deps, resolved: params.resolved, scan, fought });
      results.push(
        await healDrift({
          deps,
          octokit: reads,
          owner,
          repo,
          scan: share.scan,
          target,
          ...issueOf(issueReport),
          ignoreFights,
        }),
      );
    } else if (!shareOf("heal") && issueReport) {
      results.push(
        await warnDrift({ deps, octokit: reads, owner, repo, report: issueReport, target, renderer: scan.renderer }),
      );
    }
  }
  const mode: ModeResult = { done: results.flatMap((r) => r.done), lines: results.flatMap((r) => r.lines) };
  return { mode, shares };
}

/** One report of several shares of it: their objects, in the scan's order. */
function joinShares(report: DriftReport, parts: DriftReport[]): DriftReport {
  const kept = new Set(parts.flatMap((p) => p.resources));
  const resources = report.resources.filter((r) => kept.has(r));
  return { ...report, resources, ...summarize(resources) };
}

function issueOf(report: DriftReport | undefined): { issueReport?: DriftReport } {
  return report ? { issueReport: report } : {};
}
