// The last valid config of each repository, kept in Redis by whoever validated
// it (webhooks, scans), so that an invalid push leaves the previous config in
// force: scans of that repository go on with it until the file is fixed.
//
// Every scan job validates its snapshot's config and keeps it, so a write names
// what it keeps (a digest beside the config) and is skipped when the digest is
// already there: at 1,000 targets the config is about 640 kB as JSON, and
// writing it again in each of a cycle's 1,000 jobs was 640 MB to Redis and a
// large string for the collector per job, for nothing.
import type { Redis } from "ioredis";
import type { RepoConfig } from "../config/schema.ts";
import { shortHash } from "../model/short-hash.ts";

/** Get and set the kept config of `owner/name`; it is the schema's output, plain JSON values only. */
export function lastValidConfig(params: { redis: Redis; prefix: string }) {
  const key = (repo: string) => `${params.prefix}:config:${repo.toLowerCase()}`;
  return {
    async get(repo: string): Promise<RepoConfig | undefined> {
      const text = await params.redis.get(key(repo));
      return text ? (JSON.parse(text) as RepoConfig) : undefined;
    },
    /**
     * Keeps `config` unless the kept one has the same `digest`: a name for the config's source that changes
     * whenever the config does (readSnapshotConfig's, of the file's text); without one, a hash of the config.
     */
    async set(repo: string, config: RepoConfig, digest?: string): Promise<void> {
      const text = digest === undefined ? JSON.stringify(config) : undefined;
      const name = digest ?? `json\u0000${shortHash(text!, 64)}`;
      if ((await params.redis.get(`${key(repo)}:digest`)) === name) return;
      await params.redis
        .multi()
        .set(key(repo), text ?? JSON.stringify(config))
        .set(`${key(repo)}:digest`, name)
        .exec();
    },
  };
}
