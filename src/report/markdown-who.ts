// Who wrote a field, for a markdown table cell: the manager in code and, when
// the cluster recorded the write, the person behind it in words
// (describe-actor.ts), so the check run, the tracking issue and the pull
// request bodies all say it the same way.
import type { Actor, Change } from "../model/types.ts";
import { describeDeletion, personOf, whence } from "./describe-actor.ts";
import { codeSpan, escapeText } from "./markdown-escape.ts";

/** `` `kubectl-patch` by alice (sre) from 10.1.2.3 ``; the manager alone when no record fits; `max` caps the manager. */
export function whoCell(change: Pick<Change, "manager" | "actor">, max?: number): string {
  const manager = change.manager ? codeSpan(change.manager, { table: true, ...(max ? { max } : {}) }) : "";
  if (!change.actor) return manager;
  return `${manager} ${escapeText(`by ${personOf(change.actor)}${whence(change.actor)}`)}`.trim();
}

/** `deleted by bob (dev) at <time>`, escaped for a table or a paragraph. */
export function deletionText(actor: Actor): string {
  return escapeText(describeDeletion(actor));
}
