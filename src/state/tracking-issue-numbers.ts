// The number of each target's tracking issue, as its last scan found or opened
// it: findTrackingIssue reads that issue directly instead of paging through
// every issue the bot opened, which at 1,000 targets is 10 pages a scan. It is
// a hint, never trusted alone: the issue read must still carry the target's
// marker, and without a number (Redis emptied, a new target) the pages are read.
import type { Redis } from "ioredis";
import { targetKey } from "../model/target-key.ts";

export function trackingIssueNumbers(params: { redis: Redis; prefix: string }) {
  // One hash for every target: a field a target.
  const key = `${params.prefix}:tracking-issue`;
  return {
    async get(repo: string, target: string): Promise<number | undefined> {
      const kept = await params.redis.hget(key, targetKey(repo, target));
      const n = kept === null ? Number.NaN : Number(kept);
      return Number.isSafeInteger(n) && n > 0 ? n : undefined;
    },
    async set(repo: string, target: string, issue: number): Promise<void> {
      await params.redis.hset(key, targetKey(repo, target), String(issue));
    },
  };
}
