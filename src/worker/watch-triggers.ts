// A change the worker's watch of a cluster sees on a tracked object queues a
// scan of the target it belongs to, so a `kubectl edit` is reported within
// seconds rather than at the next scheduled scan:
//   - a target is known once a worker has scanned it (its repository,
//     installation and tracking selector come from that scan), and kept in
//     Redis (src/queue/watch-interest.ts) so that a process taking over the
//     cluster's watches knows the targets it never scanned itself;
//   - a burst of changes is one scan: the first change starts a short window
//     (debounceMs), later ones fold into it, and the scan is queued when it ends;
//   - the queued scan goes through enqueueScan, so it is coalesced with any
//     scan of the target already waiting or running.
//
//   const triggers = new WatchTriggers({ queues, log });
//   triggers.track(job, "undrift.dev/target=infra");  // after each scan
//   triggers.changed("prod", change);                  // a WatchCache's onChange
//   await triggers.adopt("prod");                      // this process now holds the cluster's lease
import { matchesSelector } from "../config/matches-selector.ts";
import { parseLabelSelector } from "../config/parse-label-selector.ts";
import { targetKey } from "../model/target-key.ts";
import type { KubeObject } from "../model/types.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { ScheduledScanJob } from "../queue/jobs.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { WatchInterest } from "../queue/watch-interest.ts";

interface Tracked {
  job: ScheduledScanJob;
  requirements: ReturnType<typeof parseLabelSelector>;
}

export class WatchTriggers {
  private readonly queues: UndriftQueues;
  private readonly log: QueueLog;
  private readonly debounceMs: number;
  /** By cluster, then targetKey. */
  private readonly targets = new Map<string, Map<string, Tracked>>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly interest: WatchInterest | undefined;

  constructor(params: { queues: UndriftQueues; log: QueueLog; debounceMs?: number; interest?: WatchInterest }) {
    this.queues = params.queues;
    this.log = params.log;
    this.debounceMs = params.debounceMs ?? 2_000;
    this.interest = params.interest;
  }

  /** The target was scanned: changes to objects its selector picks queue its scan from now on. */
  track(job: ScheduledScanJob, selector: string): void {
    const { installationId, repo, target, cluster } = job;
    this.remember({ installationId, repo, target, cluster }, selector);
    // Redis away: this process still triggers for it; only a takeover meanwhile would not know it.
    this.interest?.record({ installationId, repo, target, cluster }, selector).catch((error: unknown) => {
      this.log.warn({ err: error, cluster, target }, `watch interest in ${repo} target ${target} not kept in Redis`);
    });
  }

  /** The target is gone from its config or moved to another cluster. */
  forget(job: { repo: string; target: string; cluster: string }): void {
    this.targets.get(job.cluster)?.delete(targetKey(job.repo, job.target));
    this.interest?.remove(job).catch((error: unknown) => {
      this.log.warn(
        { err: error, cluster: job.cluster },
        `watch interest in ${job.repo} target ${job.target} not dropped`,
      );
    });
  }

  /**
   * This process now holds the cluster's watches: every target any worker tracked there is tracked here too,
   * and each gets one scan (reason `watch`, coalesced like any other), because nobody watched between the last
   * holder's end and now: a change made in that gap is reported by this scan rather than at the next schedule.
   * Returns how many targets were adopted.
   */
  async adopt(cluster: string): Promise<number> {
    if (!this.interest) return 0;
    const entries = await this.interest.load(cluster);
    for (const { job, selector } of entries) this.remember(job, selector);
    await Promise.all(entries.map(({ job }) => enqueueScan({ queues: this.queues, job: { ...job, reason: "watch" } })));
    return entries.length;
  }

  private remember(job: ScheduledScanJob, selector: string): void {
    const byKey = this.targets.get(job.cluster) ?? new Map<string, Tracked>();
    this.targets.set(job.cluster, byKey);
    byKey.set(targetKey(job.repo, job.target), { job, requirements: parseLabelSelector(selector) });
  }

  /** A change seen by the watch of `cluster`: every target whose selector picks the object gets a scan. */
  changed(cluster: string, object: KubeObject): void {
    for (const [key, tracked] of this.targets.get(cluster) ?? []) {
      if (!matchesSelector(object.metadata.labels, tracked.requirements)) continue;
      if (this.pending.has(key)) continue;
      const timer = setTimeout(() => {
        this.pending.delete(key);
        enqueueScan({ queues: this.queues, job: { ...tracked.job, reason: "watch" } }).catch((error: unknown) => {
          // Redis away: the scheduled scan still comes, answered from the same watch.
          this.log.warn({ err: error, cluster, target: key }, `scan of ${key} after a watched change not queued`);
        });
      }, this.debounceMs);
      timer.unref();
      this.pending.set(key, timer);
    }
  }

  /** Drops the scans not queued yet (the process is stopping). */
  close(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
