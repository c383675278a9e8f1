// The one vocabulary of what applying Git does to an object, in fluxcd ssa's
// ChangeSet style: a closed set of actions that revert, heal, prune and
// preview records carry, and that the renderers and the exit code only consume.
// A dry run (and a preview) yields the same actions as the real run would.
// The scan's findings (ResourceStatus) say what is; applyAction says what the
// apply makes of each. Where a contract spells an action otherwise (the
// preview's create/change/delete), the spelling is derived from these in
// preview-report.ts. README "Architecture" has the table.

import type { Health } from "./health.ts";
import type { DeclaredStatus, ScanProblem } from "./types.ts";

/**
 * What happened to an object (or would). created, configured, unchanged: an apply of a declared object;
 * deleted: a prune, and the object is gone; deleting: a prune the server accepted whose object still exists, marked
 * for deletion and held by its finalizers (or its grace period) until they are done, so it is not called deleted
 * while it is there; skipped: left alone on purpose (a prune guard, an object not compared); failed: the API server
 * refused it.
 */
export type Action = "created" | "configured" | "unchanged" | "deleted" | "deleting" | "skipped" | "failed";

export const actions: readonly Action[] = [
  "created",
  "configured",
  "unchanged",
  "deleted",
  "deleting",
  "skipped",
  "failed",
];

/** A prune the server accepted: the object is gone, or going (deleting). */
export function isDeletion(record: Pick<ObjectRecord, "action">): boolean {
  return record.action === "deleted" || record.action === "deleting";
}

/** What applying Git does to a declared object, by what the scan found of it (an orphan goes to prune: deleted or skipped). */
export const applyAction = {
  "in-sync": "unchanged",
  drifted: "configured",
  missing: "created",
} as const satisfies Record<DeclaredStatus, Action>;

/** Why prune left an orphan alone, as a code for machines beside the reason for people. */
export type PruneGuard =
  | "not-requested"
  | "untracked"
  | "opted-out"
  | "empty-render"
  | "skipped-documents"
  | "selector"
  | "kind"
  | "in-use"
  | "max-percent"
  /** Another target of the repository declares the object: it is no orphan of the repository. */
  | "declared-elsewhere"
  /** Another target could not be rendered, so what it declares is unknown. */
  | "others-unknown";

/** A field another manager owns, which an apply without force will not take. */
export interface FieldConflict {
  /** The field as the API server prints it: `.spec.template.spec.containers[name="web"].image`. */
  field: string;
  manager: string;
  subresource?: string;
}

/** One object's line in the result. Names and field paths only: never a value, so never a Secret's. */
export interface ObjectRecord {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  action: Action;
  /** Why it was skipped or failed, or a note on how it was done. */
  reason?: string;
  /** For a skipped orphan: which prune guard held it back. */
  guard?: PruneGuard;
  /** JSON pointers of the fields the apply changes (from the scan's comparison). */
  changes?: string[];
  /** Managers whose hand-made fields passed to undrift's field manager before the apply. */
  takenFrom?: string[];
  /** Fields the apply was refused for, with their owners. */
  conflicts?: FieldConflict[];
  health?: Health;
}

/** How long a revert waits for health. all: every applied object; dependencies: CRDs and Namespaces; none: nothing. */
export type WaitMode = "all" | "dependencies" | "none";

export interface RevertResult {
  target: string;
  revision: string;
  dryRun: boolean;
  wait: WaitMode;
  summary: Record<Action, number>;
  resources: ObjectRecord[];
  /** What the scan could not compare, passed on as it reported it. */
  problems: ScanProblem[];
  stats: { requests: number; durationMs: number };
  /** Set when a signal (Ctrl-C) stopped the revert: the records say what was applied before it stopped. */
  interrupted?: true;
}
