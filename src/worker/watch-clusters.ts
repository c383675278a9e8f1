// The watches of a worker process (src/live/watch-cache.ts) and what they
// drive: for each cluster it serves, a Redis lease (only its holder watches;
// another process takes over within seconds when the holder dies), a session
// pool whose scans are answered from the holder's watches, and the triggers
// that turn a watched change into a scan of its target.
//
//   const watching = watchClusters({ queues, connection, clusters, log });
//   scanHandlers({ ..., sessions: watching.sessions, triggers: watching.triggers });
//   ...  await watching.close();
import type { Redis } from "ioredis";
import { SessionPool } from "../live/session-pool.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { holdRedisLease, type RedisLease } from "../queue/redis-lease.ts";
import { WatchInterest } from "../queue/watch-interest.ts";
import { WatchTriggers } from "./watch-triggers.ts";

export interface WatchingClusters {
  sessions: SessionPool;
  triggers: WatchTriggers;
  /** Whether this process watches `cluster` now. */
  watching(cluster: string): boolean;
  close(): Promise<void>;
}

export function watchClusters(params: {
  queues: UndriftQueues;
  connection: Redis;
  clusters: readonly string[];
  log: QueueLog;
  /** How long a dead holder keeps the lease (default 6 s). */
  leaseTtlMs?: number;
  /** The window a burst of changes is folded into (default 2 s). */
  debounceMs?: number;
}): WatchingClusters {
  const { queues, log } = params;
  // The leases' and the watch interest's own connection fails fast while Redis is away (the worker's waits it
  // out): a renewal that cannot be sent means the lease may lapse, and a pending one must not hold up the
  // process's shutdown. Its errors are the outage the worker's connection already reports once.
  const redis = params.connection.duplicate({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => undefined);
  const triggers = new WatchTriggers({
    queues,
    log,
    interest: new WatchInterest({ redis, prefix: queues.prefix, log }),
    ...(params.debounceMs !== undefined ? { debounceMs: params.debounceMs } : {}),
  });
  const leases = new Map<string, RedisLease>();
  const watching = (cluster: string) => leases.get(cluster)?.held ?? false;
  const sessions = new SessionPool({
    watch: watching,
    onChange: (cluster, change) => triggers.changed(cluster, change.object),
  });
  for (const cluster of params.clusters) {
    const lease = holdRedisLease({
      redis,
      key: `${queues.prefix}:watch-lease:${encodeURIComponent(cluster)}`,
      log,
      ...(params.leaseTtlMs !== undefined ? { ttlMs: params.leaseTtlMs } : {}),
      onChange: (held) => {
        if (!held) sessions.unwatch(cluster);
        log.info({ cluster, held }, `${held ? "watching" : "no longer watching"} cluster ${cluster}`);
        // Nobody watched the cluster between the last holder's end (or this process's restart) and now: the
        // targets tracked there are scanned once, and those scans, run here, open the watches again.
        if (held) {
          triggers.adopt(cluster).then(
            (count) => {
              if (count > 0)
                log.info(
                  { cluster, targets: count },
                  `${count} watched targets of cluster ${cluster} queued for a scan on taking its watches`,
                );
            },
            (error: unknown) => log.warn({ err: error, cluster }, `watched targets of cluster ${cluster} not adopted`),
          );
        }
      },
    });
    leases.set(cluster, lease);
  }
  return {
    sessions,
    triggers,
    watching,
    async close() {
      triggers.close();
      await Promise.all([...leases.values()].map((lease) => lease.release()));
      sessions.close();
      redis.disconnect();
    },
  };
}
