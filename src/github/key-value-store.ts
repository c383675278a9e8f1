// Where small GitHub-side state lives between scans (ETags and the heads they
// stand for): in memory for one process, or Redis for web and workers that
// run apart. A Redis store is two lines over ioredis:
//
//   { get: async (k) => (await redis.get(k)) ?? undefined, set: async (k, v) => void (await redis.set(k, v)) }

export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

/** A store for one process, kept for its lifetime. */
export function memoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
  };
}
