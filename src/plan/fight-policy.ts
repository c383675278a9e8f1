// When heal stops healing a field: the policy of a fight between two appliers (state/heal-fights.ts keeps the history).

/** The defaults: three heals within an hour. */
export const FIGHT_HEALS = 3;
export const FIGHT_WINDOW_MS = 3_600_000;

export interface FightPolicy {
  heals: number;
  windowMs: number;
}

/** One field of one object: `apps/Deployment/shop/web` (keyString) and a JSON pointer. */
export interface FieldRef {
  object: string;
  path: string;
}
