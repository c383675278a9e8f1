// What the tracking issue's dashboard keeps in Redis, per (repository, target),
// under the queues' prefix:
//   <prefix>:dashboard:<repo>#<target>:snoozes   hash: object key -> {ref, until, by}
//   <prefix>:dashboard:<repo>#<target>:log       list: the recent "who asked for what" lines, newest first
//   <prefix>:dashboard:<repo>#<target>:prs       hash: codify | revert -> the items of the PR the dashboard
//                                                 opened, so a scan settles it when their drift is gone
//                                                 (settle-dashboard-prs.ts) without asking GitHub each time
// A snooze holds until its time has passed (read with the caller's clock, so
// tests can move it), then it is dropped on the next read.
import type { Redis } from "ioredis";
import { keyString, refKey } from "../model/object-key.ts";
import type { ObjectRef } from "../model/object-label.ts";
import { targetKey } from "../model/target-key.ts";
import type { DriftItem } from "../plan/selected-drift.ts";

/** One snoozed object: until when (epoch ms) and who asked. */
export interface Snooze {
  ref: ObjectRef;
  until: number;
  by: string;
}

export interface DashboardState {
  snooze(snooze: Snooze): Promise<void>;
  /** The snoozes still in force at `now`; the ones past are removed. */
  snoozes(now: number): Promise<Snooze[]>;
  addLog(line: string): Promise<void>;
  /** The latest lines, newest first. */
  log(): Promise<string[]>;
  /** Rewrites the line `before` as `after` (an ignore tick's, once its job is done); false when `before` is not kept. */
  replaceLog(before: string, after: string): Promise<boolean>;
  /** Records the items of the codify or revert PR a tick opened or updated. */
  openedPr(mode: DashboardPrMode, items: readonly DriftItem[]): Promise<void>;
  /** The dashboard's PRs still recorded as open, by mode. */
  openPrs(): Promise<Array<{ mode: DashboardPrMode; items: DriftItem[] }>>;
  forgetPr(mode: DashboardPrMode): Promise<void>;
}

/** The PRs a tick opens that a scan settles; an ignore PR is a rule proposed, never closed by a scan. */
export type DashboardPrMode = "codify" | "revert";

// The issue shows the latest lines only; older ones are in the audit stream.
const LOG_LINES = 15;
// A snooze is at most a week: the hash outlives it by a day, so a target gone from the config leaves nothing for long.
const KEEP_MS = 8 * 24 * 3600_000;
// A PR may stay open for weeks; each tick that updates it keeps its record longer.
const PR_KEEP_MS = 90 * 24 * 3600_000;

// Found and rewritten in one step, so a line another job pushes meanwhile cannot move the one rewritten.
const REPLACE_LINE = `
local lines = redis.call('LRANGE', KEYS[1], 0, -1)
for i, line in ipairs(lines) do
  if line == ARGV[1] then
    redis.call('LSET', KEYS[1], i - 1, ARGV[2])
    return 1
  end
end
return 0`;

export function dashboardState(params: { redis: Redis; prefix: string; repo: string; target: string }): DashboardState {
  const { redis } = params;
  const stem = `${params.prefix}:dashboard:${targetKey(params.repo, params.target)}`;
  const snoozeKey = `${stem}:snoozes`;
  const logKey = `${stem}:log`;
  const prsKey = `${stem}:prs`;
  return {
    async snooze(snooze) {
      await redis
        .multi()
        .hset(snoozeKey, keyString(refKey(snooze.ref)), JSON.stringify(snooze))
        .pexpire(snoozeKey, KEEP_MS)
        .exec();
    },
    async snoozes(now) {
      const all = await redis.hgetall(snoozeKey);
      const active: Snooze[] = [];
      const past: string[] = [];
      for (const [key, value] of Object.entries(all)) {
        const snooze = JSON.parse(value) as Snooze;
        if (snooze.until > now) active.push(snooze);
        else past.push(key);
      }
      if (past.length > 0) await redis.hdel(snoozeKey, ...past);
      return active.sort((a, b) => a.until - b.until);
    },
    async addLog(line) {
      await redis
        .multi()
        .lpush(logKey, line)
        .ltrim(logKey, 0, LOG_LINES - 1)
        .pexpire(logKey, KEEP_MS * 4)
        .exec();
    },
    log: () => redis.lrange(logKey, 0, LOG_LINES - 1),
    async replaceLog(before, after) {
      return (await redis.eval(REPLACE_LINE, 1, logKey, before, after)) === 1;
    },
    async openedPr(mode, items) {
      await redis.multi().hset(prsKey, mode, JSON.stringify(items)).pexpire(prsKey, PR_KEEP_MS).exec();
    },
    async openPrs() {
      const all = await redis.hgetall(prsKey);
      return Object.entries(all).map(([mode, items]) => ({
        mode: mode as DashboardPrMode,
        items: JSON.parse(items) as DriftItem[],
      }));
    },
    async forgetPr(mode) {
      await redis.hdel(prsKey, mode);
    },
  };
}
