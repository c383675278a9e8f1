// A merge job's target, resolved once from Git as merged: the snapshot of the
// merge commit, its config, the target, the record file the pull request added
// (.undrift/revert/<target>.yaml), and the kubeconfig of the target's cluster.
// Whatever does not hold (no valid config, the target gone or moved, a record
// for something else) is a refusal, said on the pull request, never a retry.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { ProbotOctokit } from "probot";
import { clusterFor } from "../config/cluster-registry.ts";
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import { downloadSnapshot } from "../github/download-snapshot.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { parseRevertRecord, type RevertRecord, revertRecordPath } from "../plan/revert/revert-record.ts";
import type { ScanJob } from "../queue/jobs.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { readSnapshotConfig } from "./read-snapshot-config.ts";
import { targetsOnCluster } from "./targets-on-cluster.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export interface ResolvedMergeTarget {
  /** The extracted snapshot of the merge commit; it has no .git. */
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  record: RevertRecord;
  kubeConfig: KubeConfig;
}

export async function resolveMergeTarget(params: {
  deps: WorkerDeps;
  job: ScanJob;
  octokit: ProbotOctokit;
  revision: string;
}): Promise<{ resolved: ResolvedMergeTarget } | { refused: string }> {
  const { deps, job, octokit, revision } = params;
  const { queues } = deps;
  const [owner = "", repo = ""] = job.repo.split("/");

  // 1. Git as merged: its config and the target.
  const snapshot = await downloadSnapshot({ octokit, owner, repo, sha: revision, cacheDir: deps.snapshotDir });
  const read = await readSnapshotConfig({
    dir: snapshot.dir,
    octokit,
    owner,
    repo,
    sha: revision,
    lastValid: () => lastValidConfig({ redis: queues.connection, prefix: queues.prefix }).get(job.repo),
  });
  if (!read || read.invalid)
    return { refused: "the config (`.github/undrift.yml` or `.yaml`) at the merge commit is missing or invalid." };
  // A target its `discover:` entry finds on this cluster is resolved there, as a scan resolves it.
  const kubeConfigOf = (cluster: string) => loadKubeconfig(clusterFor(deps.registry, cluster, job.repo));
  const onCluster = await targetsOnCluster({ deps, job, config: read.config, kubeConfig: kubeConfigOf });
  const target = (onCluster?.targets ?? read.config.targets).find((t) => t.name === job.target);
  if (!target) return { refused: "the target is no longer in the repository's config." };
  if (target.cluster !== job.cluster)
    return { refused: `the target now names cluster \`${target.cluster}\`, not the one the record was made for.` };

  // 2. The record the pull request added.
  const file = revertRecordPath(target.name);
  let record: RevertRecord;
  try {
    record = parseRevertRecord({ text: await readFile(join(snapshot.dir, file), "utf8"), file });
  } catch (error) {
    return { refused: `the record \`${file}\` could not be read at the merge commit: ${(error as Error).message}` };
  }
  if (record.target !== target.name || record.cluster !== target.cluster)
    return { refused: `the record \`${file}\` is for target \`${record.target}\` on cluster \`${record.cluster}\`.` };

  // 3. The kubeconfig of the target's cluster.
  const kubeConfig = kubeConfigOf(target.cluster);
  return { resolved: { repoDir: snapshot.dir, config: read.config, target, record, kubeConfig } };
}
