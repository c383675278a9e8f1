// The one place undrift connects to Redis (REDIS_URL). Two roles, because
// BullMQ needs two behaviours from ioredis during an outage:
//   worker:   `maxRetriesPerRequest: null`, so commands wait for the reconnect
//             instead of failing: a running job keeps its lock and finishes.
//   producer: a few retries, then the command fails, so a webhook handler that
//             enqueues a scan answers with an error instead of hanging.
// An outage is said once per Redis, in one line naming the URL (never its
// password), nothing while ioredis retries (backing off up to 5 s), and once
// more when the connection is back. Queues and workers leave connection errors
// to it (isRedisConnectionError), so their listeners do not repeat them.
import { Redis } from "ioredis";
import { printableRedisUrl, redisUrl } from "../config/redis-url.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { type QueueLog, stderrLog } from "./queue-log.ts";

/** worker: waits out outages; producer: fails a command after a few reconnect attempts. */
export type RedisRole = "worker" | "producer";

/** A new ioredis connection for `role`; the caller owns it and calls `quit()` when done. */
export function createRedisConnection(params: { role: RedisRole; url?: string; name?: string; log?: QueueLog }): Redis {
  const url = params.url ?? redisUrl();
  const connection = new Redis(url, {
    maxRetriesPerRequest: params.role === "worker" ? null : 3,
    // Shows who holds a connection in CLIENT LIST.
    connectionName: params.name ?? `undrift-${params.role}`,
    // ioredis' own backoff (50 ms more per attempt), capped higher than its 2 s: an outage costs few attempts.
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  watchOutages(connection, url, params.log ?? stderrLog);
  return connection;
}

/** Redis could not be reached, for a command that needs it now (`undrift audit`); a retry later may succeed. */
export class RedisUnreachableError extends UndriftError {
  override name = "RedisUnreachableError";
  readonly permanent = false;
}

/** Whether an error is Redis being unreachable (said once by the connection), not a command's own failure. */
export function isRedisConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && CONNECTION_CODES.has(code)) return true;
  return (
    error.name === "MaxRetriesPerRequestError" ||
    /^(Connection is closed|Stream isn't writeable|getaddrinfo )/.test(error.message)
  );
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/** Per Redis URL in this process: whether it is down, and since when. */
const outages = new Map<string, { since: number } | undefined>();

/**
 * Says once per outage that the Redis at `url` is unreachable; later errors, from this or any other
 * connection to it, say nothing until one is ready again.
 */
function noteRedisError(url: string, error: Error, log: QueueLog): void {
  if (outages.get(url)) return;
  outages.set(url, { since: Date.now() });
  const shown = printableRedisUrl(url);
  const why = isRedisConnectionError(error) ? error.message : `${error.name}: ${error.message}`;
  log.error({ redis: shown }, `Redis at ${shown} is unreachable (${why}); retrying with backoff`);
}

function watchOutages(connection: Redis, url: string, log: QueueLog): void {
  const shown = printableRedisUrl(url);
  connection.on("error", (error: Error) => noteRedisError(url, error, log));
  connection.on("ready", () => {
    const outage = outages.get(url);
    if (!outage) return;
    outages.set(url, undefined);
    const seconds = Math.round((Date.now() - outage.since) / 1000);
    log.info({ redis: shown, downSeconds: seconds }, `Redis at ${shown} is reachable again after ${seconds}s`);
  });
}
