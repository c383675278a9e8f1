// One repository's schedulers made to match its config, on installation and
// when a push changes the config:
//   1. load `.github/undrift.yml` (or `.yaml`) through Probot's loader (absent: unschedule)
//   2. invalid: a failing `undrift/config` check run; the schedulers of the
//      last valid config stay as they are
//   3. valid: targets whose cluster the registry refuses get a failing check
//      run and no scheduler; the others are upserted (and scanned at once when new or changed),
//      and so is each allowed `discover:` entry's tick (its worker queues the targets it finds)
import type { ProbotOctokit } from "probot";
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import { type PartitionedTargets, partitionScheduled, type ScheduledName } from "../config/partition-targets.ts";
import type { RepoConfig } from "../config/schema.ts";
import { withConditionalGets } from "../github/conditional-gets.ts";
import { defaultBranchHead } from "../github/default-branch-head.ts";
import type { KeyValueStore } from "../github/key-value-store.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { postConfigCheck } from "../github/post-config-check.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { removeScanSchedulers } from "../queue/remove-scan-schedulers.ts";
import type { SchedulerChanges } from "../queue/upsert-scan-schedulers.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { postRefusals } from "./post-refusals.ts";
import { repoAudit } from "./repo-audit.ts";
import { scheduleTargets } from "./schedule-targets.ts";

export type RepoSyncResult =
  | { status: "absent"; removed: string[] }
  | { status: "invalid" }
  | ({ status: "valid"; config: RepoConfig; changes: SchedulerChanges } & PartitionedTargets<ScheduledName>);

export async function syncRepoSchedulers(params: {
  /** The queues, and the registry that refuses targets before they are scheduled (absent: none refused here). */
  deps: { queues: UndriftQueues; registry?: ClusterRegistry | undefined };
  octokit: ProbotOctokit;
  store: KeyValueStore;
  installationId: number;
  owner: string;
  repo: string;
  /** The pushed commit: the config is read there, and checks are posted on it. Default: the default branch head. */
  sha?: string;
  reason: "install" | "config";
  /** Who caused it (the installer, the pusher), for the audit. */
  actor: string;
  log: QueueLog;
}): Promise<RepoSyncResult> {
  const { deps, octokit, owner, repo, log } = params;
  const { queues } = deps;
  const fullName = `${owner}/${repo}`;
  const audit = repoAudit({ queues, log, repo: fullName, actor: params.actor });
  const loaded = await loadRepoConfig({ octokit, owner, repo, ...(params.sha ? { ref: params.sha } : {}) });

  // 1. No config of its own: the repository does not use undrift (or stopped).
  if (loaded.status === "absent") {
    const removed = await removeScanSchedulers({ queues, repo: fullName });
    if (removed.length > 0) await audit({ event: "unschedule", outcome: `no config; removed ${removed.join(", ")}` });
    return { status: "absent", removed };
  }
  const reads = withConditionalGets({ octokit, store: params.store });
  const headSha = async () =>
    params.sha ?? (await defaultBranchHead({ octokit: reads, store: params.store, owner, repo })).sha;

  // 2. Invalid: said where the author looks, and nothing else changes.
  if (loaded.status === "invalid") {
    const sha = await headSha();
    const check = await postConfigCheck({ octokit: reads, owner, repo, headSha: sha, error: loaded.error });
    await audit({
      event: "config-invalid",
      outcome: `kept the last valid config: ${loaded.error.message}`,
      revision: sha,
      ...(check.url ? { url: check.url } : {}),
    });
    return { status: "invalid" };
  }

  // 3. Valid: kept as the one in force, then refuse what the registry does not allow, schedule the rest.
  const { config } = loaded;
  await lastValidConfig({ redis: queues.connection, prefix: queues.prefix }).set(fullName, config);
  const parts = partitionScheduled({ registry: deps.registry, repo: fullName, config });
  if (parts.refused.length > 0) {
    await postRefusals({ octokit: reads, owner, repo, headSha: await headSha(), refused: parts.refused, audit });
  }
  const { installationId, reason } = params;
  const { allowed } = parts;
  const changes = await scheduleTargets({ queues, reason, installationId, repo: fullName, config, allowed, audit });
  return { status: "valid", config, changes, ...parts };
}
