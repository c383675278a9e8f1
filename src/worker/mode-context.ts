// The ModeContext a job hands the mode handlers: the scan job's, for every share
// (act-on-shares.ts), and the dashboard's, for the items ticked for codify or
// revert (dashboard/act-on-boxes.ts). One builder, so that both give a handler
// the same client, base, snapshot and settings. And the ignore action's context
// (modes/ignore/propose-ignore.ts), whose proof scans the target again.
import { ClusterSession } from "../live/cluster-session.ts";
import type { KubeClient } from "../live/kube-client.ts";
import type { DriftReport } from "../model/types.ts";
import type { IgnoreOutcome } from "../modes/ignore/ignore-outcome.ts";
import type { IgnoreContext } from "../modes/ignore/propose-ignore.ts";
import type { ModeContext } from "../modes/mode-handler.ts";
import type { ModeShare } from "../plan/mode-shares.ts";
import type { FoughtObject } from "../report/app/heal-sections.ts";
import { type ScanResult, scanResolvedTarget } from "../stages/scan/scan-target.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export function modeContext(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
  scan: ScanResult;
  client: KubeClient;
  shares: readonly ModeShare<ScanResult>[];
  issueReport?: DriftReport | undefined;
  ignoreFights?: (fought: FoughtObject[]) => Promise<IgnoreOutcome>;
}): ModeContext {
  const { reads, owner, repo, head, repoDir, config, target } = params.resolved;
  return {
    deps: params.deps,
    octokit: reads,
    owner,
    repo,
    base: { branch: head.branch, sha: head.sha, treeSha: head.treeSha },
    repoDir,
    config,
    target,
    scan: params.scan,
    client: params.client,
    shares: params.shares,
    ...(params.issueReport ? { issueReport: params.issueReport } : {}),
    ...(params.ignoreFights ? { ignoreFights: params.ignoreFights } : {}),
  };
}

/** The ignore action's context: the job's repository and snapshot, and its proof's scan on the cluster's shared session. */
export function ignoreContext(params: { deps: WorkerDeps; resolved: ResolvedScanTarget }): IgnoreContext {
  const { deps, resolved } = params;
  const { reads, owner, repo, head, repoDir, target, kubeConfig } = resolved;
  return {
    octokit: reads,
    owner,
    repo,
    base: { branch: head.branch, sha: head.sha, treeSha: head.treeSha },
    repoDir,
    target,
    async rescan(config, edited) {
      const lease = deps.sessions?.acquire(edited.cluster, kubeConfig);
      try {
        const session = lease?.session ?? new ClusterSession(kubeConfig);
        return await scanResolvedTarget({ repoDir, config, target: edited, session, revision: head.sha });
      } finally {
        lease?.release();
      }
    },
  };
}
