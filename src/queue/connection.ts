// The one place undrift connects to Redis (REDIS_URL). Two roles, because
// BullMQ needs two behaviours from ioredis during an outage:
//   worker:   `maxRetriesPerRequest: null`, so commands wait for the reconnect
//             instead of failing: a running job keeps its lock and finishes.
//   producer: a few retries, then the command fails, so a webhook handler that
//             enqueues a scan answers with an error instead of hanging.
import { Redis } from "ioredis";
import { redisUrl } from "../config/redis-url.ts";

/** worker: waits out outages; producer: fails a command after a few reconnect attempts. */
export type RedisRole = "worker" | "producer";

/** A new ioredis connection for `role`; the caller owns it and calls `quit()` when done. */
export function createRedisConnection(params: { role: RedisRole; url?: string; name?: string }): Redis {
  const url = params.url ?? redisUrl();
  return new Redis(url, {
    maxRetriesPerRequest: params.role === "worker" ? null : 3,
    // Shows who holds a connection in CLIENT LIST.
    connectionName: params.name ?? `undrift-${params.role}`,
  });
}
