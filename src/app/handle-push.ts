// A push to the default branch:
//   1. `.github/undrift.yml` (or `.yaml`) changed: reload it and make the schedulers match
//      (an invalid one gets a failing check run and changes nothing);
//   2. files under a target's folder changed: scan that target at once, at the
//      pushed commit (the job id makes a redelivered webhook a no-op);
//   3. files outside every target's folder changed: the kustomize targets that
//      render from them (a shared base, a component, a patch file) are scanned too.
// Pushes to other branches, tags and branch deletions are not undrift's business.
import type { ProbotOctokit } from "probot";
import { CONFIG_FILES } from "../config/load-config.ts";
import { partitionTargets } from "../config/partition-targets.ts";
import type { TargetConfig } from "../config/schema.ts";
import type { KeyValueStore } from "../github/key-value-store.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { AppDeps } from "./app-deps.ts";
import { changedFiles } from "./changed-files.ts";
import { syncRepoSchedulers } from "./sync-repo-schedulers.ts";
import { targetsUsingChanges } from "./targets-using-changes.ts";
import { touchesPath } from "./touches-path.ts";

interface PushEvent {
  installationId: number;
  owner: string;
  repo: string;
  defaultBranch: string;
  ref: string;
  after: string;
  deleted: boolean;
  forced: boolean;
  commits: ReadonlyArray<{ added?: string[]; removed?: string[]; modified?: string[] }>;
  actor: string;
}

/** What the push did: whether the config was reloaded, and the scan jobs it asked for. */
export async function handlePush(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  store: KeyValueStore;
  log: QueueLog;
  push: PushEvent;
}): Promise<{ configReloaded: boolean; scans: string[] }> {
  const { deps, octokit, push } = params;
  if (push.deleted || push.ref !== `refs/heads/${push.defaultBranch}`) return { configReloaded: false, scans: [] };
  const { owner, repo } = push;
  const fullName = `${owner}/${repo}`;
  const files = changedFiles(push);
  const configChanged = files === undefined || CONFIG_FILES.some((file) => files.has(file));

  // 1. The config: reloaded when it changed, else read for the target folders.
  let targets: TargetConfig[];
  if (configChanged) {
    const synced = await syncRepoSchedulers({
      ...params,
      installationId: push.installationId,
      owner,
      repo,
      sha: push.after,
      reason: "config",
      actor: push.actor,
    });
    if (synced.status !== "valid") return { configReloaded: true, scans: [] };
    targets = synced.allowed;
  } else {
    const loaded = await loadRepoConfig({ octokit, owner, repo, ref: push.after });
    // Invalid since an earlier push, which got the failing check; its scans would fail on the same file.
    if (loaded.status !== "valid") return { configReloaded: false, scans: [] };
    targets = partitionTargets({ registry: deps.registry, repo: fullName, targets: loaded.config.targets }).allowed;
  }

  // 2. The targets whose folders the push touched.
  const touched = targets.filter((target) => touchesPath(files, target.path));

  // 3. Files outside every folder may be what other targets render from; only then are kustomizations read.
  const outside = [...(files ?? [])].filter(
    (file) => !CONFIG_FILES.includes(file) && !targets.some((target) => touchesPath(new Set([file]), target.path)),
  );
  const others = targets.filter((target) => !touched.includes(target));
  if (files && outside.length > 0 && others.length > 0)
    touched.push(
      ...(await targetsUsingChanges({
        octokit,
        owner,
        repo,
        sha: push.after,
        targets: others,
        files: new Set(outside),
      })),
    );

  const scans: string[] = [];
  for (const target of touched) {
    scans.push(
      await enqueueScan({
        queues: deps.queues,
        job: {
          installationId: push.installationId,
          repo: fullName,
          target: target.name,
          cluster: target.cluster,
          revision: push.after,
          reason: "push",
        },
      }),
    );
  }
  return { configReloaded: configChanged, scans };
}
