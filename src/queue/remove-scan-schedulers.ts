// Removes the schedulers of a repository that went away (uninstalled from it,
// deleted, or its config removed) or of a whole installation. Scans already
// queued are left to run; they meet the missing access and report it.
import type { UndriftQueues } from "./create-queues.ts";
import { listScanSchedulers, type ScanScheduler } from "./list-scan-schedulers.ts";

/** Removes every scheduler of `repo` (owner/name) or of `installationId`; returns the ids removed. */
export async function removeScanSchedulers(
  params: { queues: UndriftQueues; existing?: ScanScheduler[] } & ({ repo: string } | { installationId: number }),
): Promise<string[]> {
  const all = params.existing ?? (await listScanSchedulers(params.queues));
  const doomed =
    "repo" in params
      ? schedulersOfRepo(all, params.repo)
      : all.filter((scheduler) => scheduler.job?.installationId === params.installationId);
  return removeJobSchedulers(params.queues, doomed);
}

/** The schedulers whose id names `repo`: ids are `owner/name#target`, lowercased. */
export function schedulersOfRepo(schedulers: ScanScheduler[], repo: string): ScanScheduler[] {
  const stem = `${repo.toLowerCase()}#`;
  return schedulers.filter((scheduler) => scheduler.id.startsWith(stem));
}

/** Removes the given schedulers (and their next queued tick); returns their ids. */
export async function removeJobSchedulers(queues: UndriftQueues, schedulers: ScanScheduler[]): Promise<string[]> {
  for (const scheduler of schedulers) await queues.schedule.removeJobScheduler(scheduler.id);
  return schedulers.map((scheduler) => scheduler.id);
}
