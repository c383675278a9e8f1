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
import type { KeyValueStore } from "../github/key-value-store.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { AppDeps } from "./app-deps.ts";
import { changedFiles } from "./changed-files.ts";
import { pushTargets } from "./push-targets.ts";
import { touchedTargets } from "./touched-targets.ts";

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
  const pushed = await pushTargets({ ...params, configChanged });
  if (!pushed) return { configReloaded: configChanged, scans: [] };
  const { targets, discovery } = pushed;
  // 2-3. The targets whose folders the push touched, and those rendering from files outside every folder.
  const touched = await touchedTargets({ octokit, owner, repo, sha: push.after, targets, files });
  // 4. A scan of each at the pushed commit; each discovery tick scans what it finds there.
  const scans: string[] = [];
  for (const target of [...touched, ...discovery]) {
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
