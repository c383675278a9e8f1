// The revision a tracking issue names: the commit at which its drift (by
// fingerprint) was first seen. Naming the latest head instead would edit the
// issue on every push to the default branch, with the drift unchanged.
import type { Redis } from "ioredis";

const TTL_SECONDS = 90 * 24 * 3600;

/** `revision`, or the one kept for `key` when the fingerprint is the same as then. */
export async function firstSeenRevision(params: {
  redis: Redis;
  key: string;
  fingerprint: string;
  revision: string;
}): Promise<string> {
  const { redis, key, fingerprint, revision } = params;
  const kept = await redis.get(key);
  const seen = kept ? (JSON.parse(kept) as { fingerprint: string; revision: string }) : undefined;
  if (seen?.fingerprint === fingerprint) return seen.revision;
  await redis.set(key, JSON.stringify({ fingerprint, revision }), "EX", TTL_SECONDS);
  return revision;
}
