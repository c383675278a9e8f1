// A short lock in Redis, for a few writes that must not interleave across
// workers (two clusters' preview jobs composing one pull request's comment):
// SET key token NX PX ttl to take it, and a compare-and-delete script to
// release it, so a holder whose lock expired never frees someone else's.
//
//   await withRedisLock({ redis, key: `${prefix}:preview-lock:${pr}` }, () => compose());
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { UndriftError } from "../model/undrift-error.ts";

/** The lock was not free within `waitMs`; transient, so the job tries again once the holder is done. */
export class LockTimeoutError extends UndriftError {
  override name = "LockTimeoutError";
  readonly permanent = false;
}

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** Runs `work` holding the lock `key`; waits up to `waitMs` (default 30s) for it, holds it at most `ttlMs` (default 60s). */
export async function withRedisLock<T>(
  params: { redis: Redis; key: string; ttlMs?: number; waitMs?: number },
  work: () => Promise<T>,
): Promise<T> {
  const { redis, key } = params;
  const ttlMs = params.ttlMs ?? 60_000;
  const deadline = Date.now() + (params.waitMs ?? 30_000);
  const token = randomUUID();
  let delay = 20;
  while ((await redis.set(key, token, "PX", ttlMs, "NX")) !== "OK") {
    if (Date.now() > deadline) throw new LockTimeoutError(`${key}: still locked after ${params.waitMs ?? 30_000}ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 500);
  }
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}
