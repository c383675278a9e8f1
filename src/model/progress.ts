// What a long step of a stage is doing now, for a front end to show while it
// runs (the CLI's progress line on a terminal). Stages and executors emit these
// through an `onProgress` callback and never print: I/O stays at the edges.

import type { ObjectRef } from "./object-label.ts";

/** One object a wait is still on, with why it is not ready yet (the health check's words). */
export interface Waiting {
  ref: ObjectRef;
  message?: string;
}

export type ProgressEvent =
  /** Rendering the target and reading its live objects. */
  | { step: "scan"; target: string }
  /** Server-side applies, `done` of `total` objects that change (a dry run checks them instead). */
  | { step: "apply"; done: number; total: number; dryRun: boolean }
  /** Waiting for health: `waiting` are the objects not ready yet, of `total` waited for. */
  | { step: "wait"; waiting: Waiting[]; total: number }
  /** Deleting (or dry-run deleting) `total` orphans. */
  | { step: "prune"; total: number; dryRun: boolean }
  /** A preview: rendering head and base and dry-running head against the cluster. */
  | { step: "preview"; target: string };

export type OnProgress = (event: ProgressEvent) => void;
