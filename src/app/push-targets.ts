// Step 1 of handlePush: the targets of the pushed config. A changed config is
// reloaded and the schedulers made to match (syncRepoSchedulers); an
// unchanged one is only read for the target folders. The `discover:` entries'
// ticks come back beside the targets: which discovered targets a push touches
// only a worker can tell (it reads the cluster's reconcilers), so each tick is
// queued and scans every target it finds at the pushed commit.
import type { ProbotOctokit } from "probot";
import { discoveryCluster } from "../config/discovery-target.ts";
import { partitionScheduled, type ScheduledName } from "../config/partition-targets.ts";
import type { TargetConfig } from "../config/schema.ts";
import type { KeyValueStore } from "../github/key-value-store.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { syncRepoSchedulers } from "../schedules/sync-repo-schedulers.ts";
import type { AppDeps } from "./app-deps.ts";

/** The allowed targets and discovery ticks; undefined when the config is absent or invalid (nothing to scan). */
export async function pushTargets(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  store: KeyValueStore;
  log: QueueLog;
  push: { installationId: number; owner: string; repo: string; after: string; actor: string };
  configChanged: boolean;
}): Promise<{ targets: TargetConfig[]; discovery: ScheduledName[] } | undefined> {
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
    return synced.status === "valid" ? split(synced.allowed, synced.config.targets) : undefined;
  }
  const loaded = await loadRepoConfig({ octokit, owner, repo, ref: push.after });
  // Invalid since an earlier push, which got the failing check; its scans would fail on the same file.
  if (loaded.status !== "valid") return undefined;
  const { config } = loaded;
  return split(
    partitionScheduled({ registry: deps.registry, repo: `${owner}/${repo}`, config }).allowed,
    config.targets,
  );
}

/** The allowed names as the config's targets, and the discovery ticks. */
function split(allowed: readonly ScheduledName[], targets: readonly TargetConfig[]) {
  const names = new Set(allowed.map((a) => a.name));
  return {
    targets: targets.filter((t) => names.has(t.name)),
    discovery: allowed.filter((a) => discoveryCluster(a.name) !== undefined),
  };
}
