// Which targets of a cluster the worker processes watch for, kept in Redis so
// a process that takes over a cluster's watch lease (src/worker/watch-clusters.ts)
// knows them without having scanned them itself:
//   - one hash per cluster, field = targetKey, value = the scheduled-scan job
//     fields and the target's tracking selector;
//   - a write only when an entry changed (the last value written is
//     remembered), so a scan of an unchanged target costs no Redis write;
//   - an entry that does not parse is skipped with one warn line: a bad entry
//     must never stop the worker.
//
//   const interest = new WatchInterest({ redis, prefix, log });
//   await interest.record(job, "undrift.dev/target=infra");
//   const tracked = await interest.load("prod");
import type { Redis } from "ioredis";
import { z } from "zod";
import { targetKey } from "../model/target-key.ts";
import { type ScheduledScanJob, scheduledScanJobSchema } from "./jobs.ts";
import type { QueueLog } from "./queue-log.ts";

const entrySchema = z.strictObject({ job: scheduledScanJobSchema, selector: z.string() });
export type WatchInterestEntry = z.output<typeof entrySchema>;

export class WatchInterest {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly log: QueueLog;
  /** By cluster then field: the value last written or read. */
  private readonly written = new Map<string, Map<string, string>>();

  constructor(params: { redis: Redis; prefix: string; log: QueueLog }) {
    this.redis = params.redis;
    this.prefix = params.prefix;
    this.log = params.log;
  }

  private key(cluster: string): string {
    return `${this.prefix}:watch-targets:${encodeURIComponent(cluster)}`;
  }

  private remembered(cluster: string): Map<string, string> {
    const byField = this.written.get(cluster) ?? new Map<string, string>();
    this.written.set(cluster, byField);
    return byField;
  }

  /** The target is tracked with `selector`; writes only when that differs from what was written before. */
  async record(job: ScheduledScanJob, selector: string): Promise<void> {
    const { installationId, repo, target, cluster } = job;
    const field = targetKey(repo, target);
    const value = JSON.stringify({ job: { installationId, repo, target, cluster }, selector });
    const byField = this.remembered(cluster);
    if (byField.get(field) === value) return;
    await this.redis.hset(this.key(cluster), field, value);
    byField.set(field, value);
  }

  /** The target is no longer tracked on `job.cluster`. */
  async remove(job: { repo: string; target: string; cluster: string }): Promise<void> {
    const field = targetKey(job.repo, job.target);
    await this.redis.hdel(this.key(job.cluster), field);
    this.remembered(job.cluster).delete(field);
  }

  /** Every valid entry of `cluster`, as the processes that scanned its targets recorded them. */
  async load(cluster: string): Promise<WatchInterestEntry[]> {
    const raw = await this.redis.hgetall(this.key(cluster));
    const byField = this.remembered(cluster);
    const schema = entrySchema.refine((entry) => entry.job.cluster === cluster, {
      path: ["job", "cluster"],
      message: `not ${cluster}`,
    });
    const entries: WatchInterestEntry[] = [];
    for (const [field, value] of Object.entries(raw)) {
      const parsed = schema.safeParse(parseJson(value));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.join(".") || "entry";
        this.log.warn(
          { cluster, target: field },
          `watch interest entry ${field} of cluster ${cluster} skipped: ${where}: ${issue?.message}`,
        );
        continue;
      }
      byField.set(field, value);
      entries.push(parsed.data);
    }
    return entries;
  }
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
