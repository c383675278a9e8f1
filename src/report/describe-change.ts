// One line per changed field for the terminal: where, and who touched it when.
import type { Change } from "../model/types.ts";
import { describeActor } from "./describe-actor.ts";

/**
 * `/data/LOG_LEVEL: changed by kubectl-patch at 2026-11-30T10:00:00Z`, or with the cluster's record of the write
 * `/data/LOG_LEVEL: changed by alice (sre) ran kubectl patch at ... from 10.1.2.3`; what is unknown is left out.
 * Values never appear here.
 */
export function describeChange(change: Change): string {
  const hasDesired = change.desired !== undefined;
  const hasLive = change.live !== undefined;
  // Named from the cluster's side: a field only live has was added there, one only Git has was removed there.
  const verb = hasDesired && !hasLive ? "removed" : hasLive && !hasDesired ? "added" : "changed";
  let line = `${change.path}: ${verb}`;
  if (change.actor) return `${line} by ${describeActor({ ...change, actor: change.actor })}`;
  if (change.manager) line += ` by ${change.manager}`;
  if (change.changedAt) line += ` at ${change.changedAt}`;
  return line;
}
