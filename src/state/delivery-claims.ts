// Which webhook deliveries were handled, by GitHub's delivery id, so that a
// delivery GitHub sends again (the "Redeliver" button, its retry after a slow
// answer) is acted on once. A claim is taken before the handler runs and
// released when it fails, so a redelivery of a failed delivery runs again.
import type { Redis } from "ioredis";

// GitHub redelivers deliveries of the past three days; a day more covers clock skew and slow operators.
const DONE_TTL_SECONDS = 4 * 24 * 3600;
// A handler that died mid-way (process killed) leaves its claim this long; then a redelivery runs again.
const RUNNING_TTL_SECONDS = 10 * 60;

export interface DeliveryClaims {
  /** True when this process may handle `key` now: nobody handled it or is handling it. */
  claim(key: string): Promise<boolean>;
  /** The handler succeeded: later deliveries of `key` are skipped for days. */
  done(key: string): Promise<void>;
  /** The handler failed: a redelivery of `key` will run. */
  release(key: string): Promise<void>;
}

/** Claims under `<prefix>:delivery:<key>`; the values say only "running" or "done". */
export function deliveryClaims(params: { redis: Redis; prefix: string }): DeliveryClaims {
  const { redis, prefix } = params;
  const at = (key: string) => `${prefix}:delivery:${key}`;
  return {
    claim: async (key) => (await redis.set(at(key), "running", "EX", RUNNING_TTL_SECONDS, "NX")) === "OK",
    done: async (key) => {
      await redis.set(at(key), "done", "EX", DONE_TTL_SECONDS);
    },
    release: async (key) => {
      await redis.del(at(key));
    },
  };
}
