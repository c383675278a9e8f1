// What heal needs to tell a fight from a heal: the fight policy (K heals
// within a window, heal-fights.ts), the Redis counts of this target's fields,
// which change was made by a program that can fight back, and each reported
// object's changes by key.
import type { TargetConfig } from "../../config/schema.ts";
import { groupOf, keyString } from "../../model/object-key.ts";
import type { Change, ResourceReport } from "../../model/types.ts";
import { FIGHT_HEALS, FIGHT_WINDOW_MS, type FightPolicy } from "../../plan/fight-policy.ts";
import type { ScanResult } from "../../stages/scan/scan-target.ts";
import { type HealFights, healFights } from "../../state/heal-fights.ts";
import type { ModeDeps } from "../mode-deps.ts";

export interface HealFightWatch {
  policy: FightPolicy;
  fights: HealFights;
  /** The manager of a change a program made (not a person, not undrift's own applier); undefined otherwise. */
  fighter(change: Change): string | undefined;
  /** The reported changes of the object with this key. */
  changesOf(key: string): Change[];
}

export function watchHealFights(params: {
  deps: ModeDeps;
  repo: string;
  scan: ScanResult;
  target: TargetConfig;
}): HealFightWatch {
  const { deps, scan, target } = params;
  const policy: FightPolicy = {
    heals: deps.healFights?.heals ?? FIGHT_HEALS,
    windowMs: deps.healFights?.windowMs ?? FIGHT_WINDOW_MS,
  };
  const fights = healFights({
    redis: deps.queues.connection,
    prefix: deps.queues.prefix,
    repo: params.repo,
    target: target.name,
    policy,
  });
  const fighter = (change: Change) =>
    change.manager !== undefined && change.manager !== target.fieldManager && !scan.policy.isHuman(change.manager)
      ? change.manager
      : undefined;
  const reported = new Map<string, ResourceReport>();
  for (const r of scan.report.resources) {
    reported.set(
      keyString({ group: groupOf(r.apiVersion), kind: r.kind, namespace: r.namespace ?? "", name: r.name }),
      r,
    );
  }
  return { policy, fights, fighter, changesOf: (key) => reported.get(key)?.changes ?? [] };
}
