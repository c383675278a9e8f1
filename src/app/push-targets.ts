// Step 1 of handlePush: the targets of the pushed config. A changed config is
// reloaded and the schedulers made to match (syncRepoSchedulers); an
// unchanged one is only read for the target folders.
import type { ProbotOctokit } from "probot";
import { partitionTargets } from "../config/partition-targets.ts";
import type { TargetConfig } from "../config/schema.ts";
import type { KeyValueStore } from "../github/key-value-store.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { syncRepoSchedulers } from "../schedules/sync-repo-schedulers.ts";
import type { AppDeps } from "./app-deps.ts";

/** The allowed targets; undefined when the config is absent or invalid (nothing to scan). */
export async function pushTargets(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  store: KeyValueStore;
  log: QueueLog;
  push: { installationId: number; owner: string; repo: string; after: string; actor: string };
  configChanged: boolean;
}): Promise<TargetConfig[] | undefined> {
  const { deps, octokit, push } = params;
  const { owner, repo } = push;
  if (params.configChanged) {
    const synced = await syncRepoSchedulers({
      ...params,
      installationId: push.installationId,
      owner,
      repo,
      sha: push.after,
      reason: "config",
      actor: push.actor,
    });
    return synced.status === "valid" ? synced.allowed : undefined;
  }
  const loaded = await loadRepoConfig({ octokit, owner, repo, ref: push.after });
  // Invalid since an earlier push, which got the failing check; its scans would fail on the same file.
  if (loaded.status !== "valid") return undefined;
  return partitionTargets({ registry: deps.registry, repo: `${owner}/${repo}`, targets: loaded.config.targets })
    .allowed;
}
