// The status page's store: per installation, each target's last state (a hash
// of small JSON records, status-summary.ts: names, paths, managers and times,
// never a value), and per target the number of objects out of sync after each
// scan over the last 14 days (a sorted set scored by time, trimmed by age and
// by count on every write, so a target scanned every minute stays bounded).
//
//   const history = statusHistory({ redis, prefix });
//   await history.recordScan({ installationId, status });      // after a scan (the worker)
//   await history.recordFailure({ installationId, repo, target, cluster, message });
//   const rows = await history.read({ installationId });        // the page (the web process)
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { targetKey } from "../model/target-key.ts";
import { driftCount, type TargetHistory, type TargetStatus } from "../report/status/status-summary.ts";

/** How far back the chart reaches, and how long a target nobody scans any more stays listed. */
export const HISTORY_MS = 14 * 24 * 3600 * 1000;
/** The most points kept per target: a scan a minute for 14 days would be 20,160; the chart needs far fewer. */
export const MAX_POINTS = 5000;

export interface StatusHistory {
  /** Keeps a finished scan's record and its point; links it does not carry are kept from the last record. */
  recordScan(params: { installationId: number; status: TargetStatus }): Promise<void>;
  /** Marks a target failing (its last objects stay listed, as last seen); the chart gets no point. */
  recordFailure(params: {
    installationId: number;
    repo: string;
    target: string;
    cluster: string;
    message: string;
  }): Promise<void>;
  /** Every target of the installation seen within 14 days, with its points, sorted by repository and target. */
  read(params: { installationId: number }): Promise<TargetHistory[]>;
}

export function statusHistory(params: {
  redis: Redis;
  prefix: string;
  now?: () => number;
  maxPoints?: number;
}): StatusHistory {
  return new RedisStatusHistory(params.redis, params.prefix, params.now ?? Date.now, params.maxPoints ?? MAX_POINTS);
}

/** The history in Redis: a hash of each target's latest status per installation, a sorted set of points per target. */
class RedisStatusHistory implements StatusHistory {
  private readonly ttlSeconds = Math.ceil(HISTORY_MS / 1000) + 24 * 3600;

  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly maxPoints: number;

  constructor(redis: Redis, prefix: string, now: () => number, maxPoints: number) {
    this.redis = redis;
    this.prefix = prefix;
    this.now = now;
    this.maxPoints = maxPoints;
  }

  private latestKey(installationId: number): string {
    return `${this.prefix}:status:${installationId}`;
  }

  private pointsKey(installationId: number, key: string): string {
    return `${this.prefix}:status-history:${installationId}:${key}`;
  }

  private async previous(installationId: number, key: string): Promise<TargetStatus | undefined> {
    const raw = await this.redis.hget(this.latestKey(installationId), key);
    return raw ? (JSON.parse(raw) as TargetStatus) : undefined;
  }

  async recordScan({ installationId, status }: Parameters<StatusHistory["recordScan"]>[0]): Promise<void> {
    const key = targetKey(status.repo, status.target);
    const last = await this.previous(installationId, key);
    const record: TargetStatus = { ...status, links: { ...last?.links, ...status.links } };
    const at = this.now();
    const points = this.pointsKey(installationId, key);
    await this.redis
      .multi()
      .hset(this.latestKey(installationId), key, JSON.stringify(record))
      .expire(this.latestKey(installationId), this.ttlSeconds)
      // A sorted set keeps one copy of equal members: the member carries its time and an id of its
      // own, so two scans with the same count, even in the same millisecond, are two points.
      .zadd(points, at, `${at}:${driftCount(record)}:${randomUUID()}`)
      .zremrangebyscore(points, "-inf", at - HISTORY_MS)
      .zremrangebyrank(points, 0, -(this.maxPoints + 1))
      .expire(points, this.ttlSeconds)
      .exec();
  }

  async recordFailure(params: Parameters<StatusHistory["recordFailure"]>[0]): Promise<void> {
    const { installationId, repo, target, cluster, message } = params;
    const key = targetKey(repo, target);
    const last = await this.previous(installationId, key);
    const record: TargetStatus = {
      ...(last ?? {
        objects: [],
        moreObjects: 0,
        links: {},
        counts: { inSync: 0, drifted: 0, missing: 0, orphaned: 0 },
      }),
      repo,
      target,
      cluster,
      state: "failing",
      failure: { at: new Date(this.now()).toISOString(), message },
    };
    await this.redis
      .multi()
      .hset(this.latestKey(installationId), key, JSON.stringify(record))
      .expire(this.latestKey(installationId), this.ttlSeconds)
      .exec();
  }

  async read({ installationId }: { installationId: number }): Promise<TargetHistory[]> {
    const since = this.now() - HISTORY_MS;
    const all = await this.redis.hgetall(this.latestKey(installationId));
    const rows: TargetHistory[] = [];
    const stale: string[] = [];
    for (const [key, raw] of Object.entries(all)) {
      const status = JSON.parse(raw) as TargetStatus;
      const seen = Math.max(Date.parse(status.scannedAt ?? "") || 0, Date.parse(status.failure?.at ?? "") || 0);
      if (seen < since) {
        stale.push(key);
        continue;
      }
      const members = await this.redis.zrangebyscore(this.pointsKey(installationId, key), since, "+inf");
      const points = members.map((m): [number, number] => {
        const [at = "0", count = "0"] = m.split(":");
        return [Number(at), Number(count)];
      });
      rows.push({ status, points });
    }
    // A target removed from its config (or its repository from the installation) leaves the page after 14 days.
    if (stale.length > 0) await this.redis.hdel(this.latestKey(installationId), ...stale);
    return rows.sort(
      (a, b) => a.status.repo.localeCompare(b.status.repo) || a.status.target.localeCompare(b.status.target),
    );
  }
}
