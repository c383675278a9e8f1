// The app was uninstalled, or a repository removed from its installation: its
// schedulers go. Scans already queued run and meet the missing access.
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { removeScanSchedulers } from "../queue/remove-scan-schedulers.ts";
import { recordAudit } from "../state/record-audit.ts";

/** Removes the schedulers of `repos` (owner/name), or of the whole installation; one audit entry per repository. */
export async function unscheduleRepos(params: {
  queues: UndriftQueues;
  log: QueueLog;
  actor: string;
  why: string;
  scope: { repos: readonly string[] } | { installationId: number };
}): Promise<string[]> {
  const { queues, scope } = params;
  const removed =
    "repos" in scope
      ? (await Promise.all(scope.repos.map((repo) => removeScanSchedulers({ queues, repo })))).flat()
      : await removeScanSchedulers({ queues, installationId: scope.installationId });
  // Scheduler ids are `owner/name#target`.
  const byRepo = new Map<string, string[]>();
  for (const id of removed) {
    const repo = id.slice(0, id.lastIndexOf("#"));
    byRepo.set(repo, [...(byRepo.get(repo) ?? []), id]);
  }
  for (const [repo, ids] of byRepo) {
    await recordAudit({
      queues,
      log: params.log,
      entry: { event: "unschedule", repo, actor: params.actor, outcome: `${params.why}; removed ${ids.join(", ")}` },
    });
  }
  return removed;
}
