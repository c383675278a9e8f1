// The resync at boot (wei/probot-scheduler's pattern): given every repository
// the app is installed on with the targets of its valid config, make the
// schedule queue match. Webhooks keep it in step while the app runs; this
// catches what happened while it did not (installs, uninstalls, config pushes).
//   - a repository seen for the first time gets its schedulers and a scan at
//     once, reason "install"; a changed one is updated and scanned, "config";
//   - schedulers of repositories and targets no longer listed are removed;
//   - repositories in `keep` (their config could not be read just now) keep
//     whatever schedulers they have: a GitHub outage at boot must not unschedule them.
import type { UndriftQueues } from "./create-queues.ts";
import { listScanSchedulers } from "./list-scan-schedulers.ts";
import { removeJobSchedulers, schedulersOfRepo } from "./remove-scan-schedulers.ts";
import { type RepoTargets, type SchedulerChanges, upsertScanSchedulers } from "./upsert-scan-schedulers.ts";

/** Makes the schedulers match `repos`, leaving those of `keep` (owner/name) as they are. */
export async function syncSchedulers(params: {
  queues: UndriftQueues;
  repos: readonly RepoTargets[];
  keep?: Iterable<string>;
}): Promise<SchedulerChanges> {
  const { queues } = params;
  const existing = await listScanSchedulers(queues);
  const changes: SchedulerChanges = { created: [], updated: [], unchanged: [], removed: [] };
  const handled = new Set<string>();

  for (const repo of params.repos) {
    const key = repo.repo.toLowerCase();
    if (handled.has(key)) throw new Error(`${repo.repo} is listed twice`);
    handled.add(key);
    const firstTime = schedulersOfRepo(existing, repo.repo).length === 0;
    const result = await upsertScanSchedulers({ queues, repo, existing, reason: firstTime ? "install" : "config" });
    for (const kind of ["created", "updated", "unchanged", "removed"] as const) changes[kind].push(...result[kind]);
  }

  for (const repo of params.keep ?? []) handled.add(repo.toLowerCase());
  // Ids are `owner/name#target`: whatever belongs to no listed or kept repository is stale.
  const stale = existing.filter((scheduler) => {
    const hash = scheduler.id.lastIndexOf("#");
    return hash < 0 || !handled.has(scheduler.id.slice(0, hash));
  });
  changes.removed.push(...(await removeJobSchedulers(queues, stale)));
  return changes;
}
