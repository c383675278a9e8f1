// The person behind a change, in words: `alice (sre) ran kubectl patch at
// 2026-12-02T10:02:03Z from 10.1.2.3`. Groups every authenticated caller has
// are left out: they tell a reader nothing. A service account is named by its
// full username (`system:serviceaccount:ci:deployer`), so it never reads as a
// person. Every output (text, markdown, the preview's drift-now, the audit
// entry) words the actor through here.
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

/** `alice (sre) at <time> from 10.1.2.3`: the person and when, where no column gives the time. */
export function whoAndWhen(actor: Actor): string {
  return `${personOf(actor)} at ${actor.at}${whence(actor)}`;
}

/** `deleted by bob (dev) at <time>`: a missing object whose deletion the cluster recorded. */
export function describeDeletion(actor: Actor): string {
  return `deleted by ${whoAndWhen(actor)}`;
}

/** The people behind an object's drift, each once, in the order of its changes; its deleter for a missing object. */
export function peopleOf(resource: { changes: readonly Change[]; deletedBy?: Actor }): string[] {
  const actors = resource.deletedBy
    ? [resource.deletedBy]
    : resource.changes.flatMap((c) => (c.actor ? [c.actor] : []));
  return [...new Set(actors.map(personOf))];
}
