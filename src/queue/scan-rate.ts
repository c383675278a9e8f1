// The per-cluster rate limit on jobs that reach the cluster's API server: a
// fixed window in Redis, shared by every worker process of the cluster, as
// BullMQ's own limiter is. It is ours and not BullMQ's because BullMQ's holds
// back every job of the queue alike, and a scan answered from the cluster's
// watches sends no LIST and no GET: holding those to 30 a minute would make a cycle
// of 1,000 watched targets take 33 minutes, longer than the schedule. The
// caller decides which jobs take a slot (src/queue/scan-worker.ts).
import type { Redis } from "ioredis";

export interface ScanRate {
  /** Jobs started per window, across all worker processes. */
  max: number;
  /** The window, in milliseconds. */
  duration: number;
}

/** BullMQ's default for the scan queues before this limit was ours: 30 jobs a minute per cluster. */
export const DEFAULT_SCAN_RATE: ScanRate = { max: 30, duration: 60_000 };

// INCR and the window's expiry in one step, so a crash between them cannot leave a counter that never expires.
const TAKE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

/**
 * Takes a slot in the current window of `key`. Returns 0 when the job may start now, else how many milliseconds
 * to wait: the n-th job over the limit waits for the window its place falls in, so a backlog is spread over the
 * windows ahead instead of every held job coming back at once when the window ends.
 */
export async function takeScanSlot(redis: Redis, key: string, rate: ScanRate): Promise<number> {
  const [count, ttl] = (await redis.eval(TAKE, 1, key, String(rate.duration))) as [number, number];
  if (count <= rate.max) return 0;
  const windowsAhead = Math.floor((count - rate.max - 1) / rate.max);
  return Math.max(1, ttl) + windowsAhead * rate.duration;
}
