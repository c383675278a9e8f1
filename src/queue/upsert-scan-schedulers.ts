// Keeps one job scheduler per target of a repository, as its config says: a
// target gets a scheduler firing every `schedule` at its own offset in the
// period (jitterOffset), a changed target or schedule updates its scheduler in
// place (same id), and a target that left the config loses its scheduler.
// A scheduler that is created or changed also enqueues a scan at once, as
// DESIGN.md "When a target is scanned" asks; an unchanged one is left alone, so
// upserting the same config twice costs no scan.

import { targetKey } from "../model/target-key.ts";
import type { UndriftQueues } from "./create-queues.ts";
import { enqueueScan } from "./enqueue-scan.ts";
import { jitterOffset } from "./jitter-offset.ts";
import {
  parseJob,
  SCHEDULED_SCAN_JOB,
  type ScanReason,
  type ScheduledScanJob,
  scheduledScanJobSchema,
} from "./jobs.ts";
import { listScanSchedulers, type ScanScheduler } from "./list-scan-schedulers.ts";
import { removeJobSchedulers, schedulersOfRepo } from "./remove-scan-schedulers.ts";

/** A repository's targets as its valid config names them, with the installation that reaches it. */
export interface RepoTargets {
  installationId: number;
  /** owner/name */
  repo: string;
  /** The config's `scheduleMs`. */
  scheduleMs: number;
  targets: ReadonlyArray<{ name: string; cluster: string }>;
}

/** What changed, by scheduler id (`owner/name#target`). */
export interface SchedulerChanges {
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/**
 * Makes the repository's schedulers match `repo.targets`. `reason` is given to
 * the scans enqueued at once for created and changed schedulers ("install" on
 * installation, "config" when the config changed). `existing` saves a read when
 * the caller already listed the schedulers.
 */
export async function upsertScanSchedulers(params: {
  queues: UndriftQueues;
  repo: RepoTargets;
  reason?: ScanReason;
  existing?: ScanScheduler[];
}): Promise<SchedulerChanges> {
  const { queues, repo } = params;
  const reason = params.reason ?? "config";
  const mine = schedulersOfRepo(params.existing ?? (await listScanSchedulers(queues)), repo.repo);
  const current = new Map(mine.map((scheduler) => [scheduler.id, scheduler]));
  const changes: SchedulerChanges = { created: [], updated: [], unchanged: [], removed: [] };
  const wanted = new Set<string>();

  for (const target of repo.targets) {
    const id = targetKey(repo.repo, target.name);
    if (wanted.has(id)) throw new Error(`${repo.repo}: target "${target.name}" is listed twice`);
    wanted.add(id);
    const job = parseJob(
      scheduledScanJobSchema,
      { installationId: repo.installationId, repo: repo.repo, target: target.name, cluster: target.cluster },
      `scheduler ${id}`,
    );
    const offset = jitterOffset(id, repo.scheduleMs);
    const existing = current.get(id);
    const sameTarget = existing !== undefined && isSameTarget(existing, { every: repo.scheduleMs, offset, job });
    if (sameTarget && stableJson(existing.opts) === stableJson(queues.tickJobOptions)) {
      changes.unchanged.push(id);
      continue;
    }
    await queues.schedule.upsertJobScheduler(
      id,
      { every: repo.scheduleMs, offset },
      { name: SCHEDULED_SCAN_JOB, data: job, opts: queues.tickJobOptions },
    );
    (existing ? changes.updated : changes.created).push(id);
    // New tick options (an undrift upgrade) are no news about the target: no scan for those.
    if (!sameTarget) await enqueueScan({ queues, job: { ...job, reason } });
  }

  changes.removed = await removeJobSchedulers(
    queues,
    mine.filter((scheduler) => !wanted.has(scheduler.id)),
  );
  return changes;
}

function isSameTarget(
  existing: ScanScheduler,
  wanted: { every: number; offset: number; job: ScheduledScanJob },
): boolean {
  return (
    existing.every === wanted.every &&
    existing.offset === wanted.offset &&
    existing.job !== undefined &&
    stableJson(existing.job) === stableJson(wanted.job)
  );
}

// JSON with object keys sorted: BullMQ hands template options back in its own key order.
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
