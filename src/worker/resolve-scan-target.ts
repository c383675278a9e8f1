// A scan job's target, resolved once at the top of its pipeline: the
// repository's default branch head, its snapshot, the config in it (or the
// last valid one), the target, and the kubeconfig of its cluster. Every later
// step is handed this value and looks nothing up again.
import type { KubeConfig } from "@kubernetes/client-node";
import type { ProbotOctokit } from "probot";
import { clusterFor } from "../config/cluster-registry.ts";
import type { ConfigError } from "../config/config-error.ts";
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import { withConditionalGets } from "../github/conditional-gets.ts";
import { defaultBranchHead } from "../github/default-branch-head.ts";
import { downloadSnapshot } from "../github/download-snapshot.ts";
import type { GitHubClient } from "../github/github-client.ts";
import type { BranchHead } from "../github/head-if-changed.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import type { ScanJob } from "../queue/jobs.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { redisStore } from "../state/redis-store.ts";
import { findScanTarget, type SkippedScan } from "./find-scan-target.ts";
import { readSnapshotConfig } from "./read-snapshot-config.ts";
import type { ScanAudit } from "./scan-job-audit.ts";
import { targetsOnCluster } from "./targets-on-cluster.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** Everything a scan job needs about its target, found once. */
export interface ResolvedScanTarget {
  owner: string;
  repo: string;
  /** The installation's client, for the snapshot and reads that must not be conditional. */
  octokit: ProbotOctokit;
  /** The same client with conditional GETs (ETags in Redis), for everything else. */
  reads: GitHubClient;
  head: BranchHead & { branch: string };
  /** The extracted snapshot of the head commit; it has no .git. */
  repoDir: string;
  config: RepoConfig;
  /** The snapshot's own config error, when the last valid config stands in for it. */
  invalid?: ConfigError;
  target: TargetConfig;
  kubeConfig: KubeConfig;
}

/** The job's repository as read for a scan: its head, snapshot and config (steps 1-3 of resolveScanTarget). */
export type ResolvedScanConfig = Omit<ResolvedScanTarget, "target" | "kubeConfig">;

export async function resolveScanTarget(params: {
  deps: WorkerDeps;
  job: ScanJob;
  signal: AbortSignal;
  audit: ScanAudit;
}): Promise<{ resolved: ResolvedScanTarget } | { skipped: SkippedScan }> {
  const { deps, job, signal, audit } = params;
  const read = await resolveScanConfig(params);
  if ("skipped" in read) return read;
  const { resolved } = read;

  // 4. The target (the config's, or one its `discover:` entry finds on this cluster), and its cluster's kubeconfig.
  const kubeConfigOf = (cluster: string) => loadKubeconfig(clusterFor(deps.registry, cluster, job.repo));
  const onCluster = await targetsOnCluster({ deps, job, config: resolved.config, kubeConfig: kubeConfigOf });
  const found = await findScanTarget({
    deps,
    job,
    targets: onCluster?.targets ?? resolved.config.targets,
    revision: resolved.head.sha,
    audit,
  });
  if ("skipped" in found) return found;
  const { target } = found;
  const kubeConfig = kubeConfigOf(target.cluster);
  signal.throwIfAborted();
  return { resolved: { ...resolved, target, kubeConfig } };
}

/** Steps 1-3: the cluster checked, the head, its snapshot and config; a repository without one ends the job. */
export async function resolveScanConfig(params: {
  deps: WorkerDeps;
  job: ScanJob;
  signal: AbortSignal;
  audit: ScanAudit;
}): Promise<{ resolved: ResolvedScanConfig } | { skipped: SkippedScan }> {
  const { deps, job, signal, audit } = params;
  const { queues } = deps;
  const [owner = "", repo = ""] = job.repo.split("/");
  const redis = queues.connection;

  // 1. A cluster the registry does not let this repository use is refused before anything is read.
  clusterFor(deps.registry, job.cluster, job.repo);

  // 2. The installation's client and the default branch head.
  const octokit = await deps.probot.auth(job.installationId);
  const store = redisStore({ redis, prefix: queues.prefix });
  const reads = withConditionalGets({ octokit, store });
  const head = await defaultBranchHead({ octokit: reads, store, owner, repo });
  signal.throwIfAborted();

  // 3. The snapshot and its config.
  const snapshot = await downloadSnapshot({ octokit, owner, repo, sha: head.sha, cacheDir: deps.snapshotDir });
  const kept = lastValidConfig({ redis, prefix: queues.prefix });
  const read = await readSnapshotConfig({
    dir: snapshot.dir,
    octokit,
    owner,
    repo,
    sha: head.sha,
    lastValid: () => kept.get(job.repo),
  });
  if (!read) {
    await audit({ event: "scan-skipped", revision: head.sha, outcome: "the repository has no .github/undrift.yml" });
    return { skipped: { outcome: "no-config", revision: head.sha, actions: [] } };
  }
  if (!read.invalid) await kept.set(job.repo, read.config, read.digest);
  signal.throwIfAborted();
  const invalid = read.invalid ? { invalid: read.invalid } : {};
  return { resolved: { owner, repo, octokit, reads, head, repoDir: snapshot.dir, config: read.config, ...invalid } };
}
