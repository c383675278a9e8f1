// The KeyValueStore of ETags and branch heads in Redis, so web and workers that
// run apart share what GitHub last answered, under the queues' key prefix.
import type { Redis } from "ioredis";
import type { KeyValueStore } from "../github/key-value-store.ts";

// An ETag of a URL nobody asks for any more (a closed issue's page) should not live forever.
const TTL_SECONDS = 14 * 24 * 3600;

/** A store whose keys live under `<prefix>:`; each write renews the key's two-week expiry. */
export function redisStore(params: { redis: Redis; prefix: string }): KeyValueStore {
  const { redis, prefix } = params;
  return {
    get: async (key) => (await redis.get(`${prefix}:${key}`)) ?? undefined,
    set: async (key, value) => {
      await redis.set(`${prefix}:${key}`, value, "EX", TTL_SECONDS);
    },
  };
}
