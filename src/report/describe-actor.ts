// The person behind a change, in words: `alice (sre) ran kubectl patch at
// 2026-12-02T10:02:03Z from 10.1.2.3`. Groups every authenticated caller has
// are left out: they tell a reader nothing.
import type { Actor, Change } from "../model/types.ts";

const EVERYONE = new Set(["system:authenticated", "system:serviceaccounts"]);

/** `alice (sre)`, or the service account's full username; groups every caller shares are left out. */
export function personOf(actor: Actor): string {
  const groups = actor.groups.filter((g) => !EVERYONE.has(g) && !g.startsWith("system:serviceaccounts:"));
  return groups.length > 0 ? `${actor.username} (${groups.join(", ")})` : actor.username;
}

/** What the manager did, as a person would say it: `ran kubectl patch` for kubectl's managers, else `via helm`. */
function deed(manager: string | undefined): string {
  if (!manager) return "wrote it";
  if (manager === "kubectl" || manager.startsWith("kubectl-")) return `ran ${manager.replace("-", " ")}`;
  return `via ${manager}`;
}

/** `alice (sre) ran kubectl patch at <time> from 10.1.2.3`, `(likely)` when the record named no manager to check. */
export function describeActor(change: Change & { actor: Actor }): string {
  return `${personOf(change.actor)} ${deed(change.manager)} at ${change.changedAt ?? change.actor.at}${whence(change.actor)}`;
}

/** ` from 10.1.2.3`, and ` (likely)` for a match by time alone: what follows the person where the manager is said apart. */
export function whence(actor: Actor): string {
  let tail = actor.sourceIP ? ` from ${actor.sourceIP}` : "";
  if (actor.confidence === "likely") tail += " (likely)";
  return tail;
}
