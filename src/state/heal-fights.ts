// Fight detection for heal: per (repository, target, object, field) a short
// history in Redis of the heals of a field that a non-human field manager had
// changed back. After `heals` of them by the same manager within `windowMs`,
// healing that field stops: the two appliers would take turns for ever. A heal
// of what a person changed is no fight, and is not kept.
import type { Redis } from "ioredis";
import { targetKey } from "../model/target-key.ts";
import { FIGHT_HEALS, FIGHT_WINDOW_MS, type FieldRef, type FightPolicy } from "../plan/fight-policy.ts";

export interface HealFights {
  /** How many heals of this field, undoing `manager`, fall within the window. */
  count(field: FieldRef, manager: string): Promise<number>;
  /** Keeps one heal of this field, undoing `manager`; returns the count within the window after it. */
  record(field: FieldRef, manager: string): Promise<number>;
}

export function healFights(params: {
  redis: Redis;
  prefix: string;
  repo: string;
  target: string;
  policy?: Partial<FightPolicy>;
  now?: () => number;
}): HealFights {
  const { redis } = params;
  const heals = params.policy?.heals ?? FIGHT_HEALS;
  const windowMs = params.policy?.windowMs ?? FIGHT_WINDOW_MS;
  const now = params.now ?? Date.now;
  const stem = `${params.prefix}:heal-fights:${targetKey(params.repo, params.target)}`;
  const keyOf = (field: FieldRef) => `${stem}:${field.object}:${field.path}`;
  // Newest first, at most what a verdict needs: older heals cannot change it.
  const count = async (field: FieldRef, manager: string) => {
    const since = now() - windowMs;
    const kept = await redis.lrange(keyOf(field), 0, heals * 4 - 1);
    return kept
      .map((entry) => JSON.parse(entry) as { manager: string; at: number })
      .filter((heal) => heal.manager === manager && heal.at >= since).length;
  };
  return {
    count,
    async record(field, manager) {
      const key = keyOf(field);
      await redis
        .multi()
        .lpush(key, JSON.stringify({ manager, at: now() }))
        .ltrim(key, 0, heals * 4 - 1)
        .pexpire(key, windowMs)
        .exec();
      return count(field, manager);
    },
  };
}
