// A preview job's two trees: the snapshots of head and base (one tarball per
// commit, cached on disk and shared with the other clusters' jobs of the same
// push) and their configs. No config in head ends the preview; an invalid base
// config only loses the comparison with base.
import type { ProbotOctokit } from "probot";
import { ConfigError } from "../../config/config-error.ts";
import type { RepoConfig } from "../../config/schema.ts";
import { downloadSnapshot } from "../../github/download-snapshot.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import { readSnapshotConfig } from "../read-snapshot-config.ts";
import type { WorkerDeps } from "../worker-deps.ts";

export interface PreviewTrees {
  headDir: string;
  baseDir: string;
  headConfig: RepoConfig;
  /** Undefined when base has no config or an invalid one: every head target then counts as changed. */
  baseConfig?: RepoConfig;
}

/** The trees, or undefined when head has no config. */
export async function readPreviewTrees(params: {
  deps: WorkerDeps;
  job: PreviewJob;
  octokit: ProbotOctokit;
}): Promise<PreviewTrees | undefined> {
  const { deps, job, octokit } = params;
  const [owner = "", repo = ""] = job.repo.split("/");
  const snapshot = (sha: string) => downloadSnapshot({ octokit, owner, repo, sha, cacheDir: deps.snapshotDir });
  const [headTree, baseTree] = await Promise.all([snapshot(job.head), snapshot(job.base)]);
  const config = (dir: string, sha: string) =>
    readSnapshotConfig({ dir, octokit, owner, repo, sha, lastValid: async () => undefined });
  const headConfig = (await config(headTree.dir, job.head))?.config;
  if (!headConfig) return undefined;
  const baseConfig = await config(baseTree.dir, job.base).then(
    (read) => read?.config,
    (error: unknown) => {
      // An invalid base config only loses the comparison with base: every head target then counts as changed.
      if (error instanceof ConfigError) return undefined;
      throw error;
    },
  );
  return { headDir: headTree.dir, baseDir: baseTree.dir, headConfig, ...(baseConfig ? { baseConfig } : {}) };
}
