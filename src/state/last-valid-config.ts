// The last valid config of each repository, kept in Redis by whoever validated
// it (webhooks, scans), so that an invalid push leaves the previous config in
// force: scans of that repository go on with it until the file is fixed.
//
// Every scan job validates its snapshot's config and keeps it, so a write names
// what it keeps (a digest beside the config) and is skipped when the digest is
// already there: at 1,000 targets the config is about 640 kB as JSON, and
// writing it again in each of a cycle's 1,000 jobs was 640 MB to Redis and a
// large string for the collector per job, for nothing.
//
// Read back the same way: while a pushed config is invalid, every job of a
// cycle falls back to the kept one, and parsing 640 kB of JSON (and freezing
// it) in each of 1,000 jobs was as wasteful as writing it. The kept config is
// parsed once per digest and shared, frozen, by its readers.
import type { Redis } from "ioredis";
import type { RepoConfig } from "../config/schema.ts";
import { deepFreeze } from "../model/deep-freeze.ts";
import { RecentMap } from "../model/recent-map.ts";
import { shortHash } from "../model/short-hash.ts";

/** Kept configs already read, frozen, by key and digest: one per repository a worker serves. */
const read = new RecentMap<RepoConfig>(64);

/** Get and set the kept config of `owner/name`; it is the schema's output, plain JSON values only. */
export function lastValidConfig(params: { redis: Redis; prefix: string }) {
  const key = (repo: string) => `${params.prefix}:config:${repo.toLowerCase()}`;
  return {
    /** The kept config, frozen and shared by every reader of the same digest. */
    async get(repo: string): Promise<RepoConfig | undefined> {
      const digest = await params.redis.get(`${key(repo)}:digest`);
      const known = digest === null ? undefined : read.get(`${key(repo)}\u0000${digest}`);
      if (known) return known;
      // The digest and the text in one transaction: a write between two reads would pair them wrongly.
      const answers = await params.redis
        .multi()
        .get(`${key(repo)}:digest`)
        .get(key(repo))
        .exec();
      const [keptDigest, text] = (answers ?? []).map(([error, value]) => {
        if (error) throw error;
        return value as string | null;
      });
      if (!text) return undefined;
      const config = deepFreeze(JSON.parse(text) as RepoConfig);
      if (keptDigest) read.set(`${key(repo)}\u0000${keptDigest}`, config);
      return config;
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
