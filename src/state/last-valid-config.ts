// The last valid config of each repository, kept in Redis by whoever validated
// it (webhooks, scans), so that an invalid push leaves the previous config in
// force: scans of that repository go on with it until the file is fixed.
import type { Redis } from "ioredis";
import type { RepoConfig } from "../config/schema.ts";

/** Get and set the kept config of `owner/name`; it is the schema's output, plain JSON values only. */
export function lastValidConfig(params: { redis: Redis; prefix: string }) {
  const key = (repo: string) => `${params.prefix}:config:${repo.toLowerCase()}`;
  return {
    async get(repo: string): Promise<RepoConfig | undefined> {
      const text = await params.redis.get(key(repo));
      return text ? (JSON.parse(text) as RepoConfig) : undefined;
    },
    async set(repo: string, config: RepoConfig): Promise<void> {
      await params.redis.set(key(repo), JSON.stringify(config));
    },
  };
}
