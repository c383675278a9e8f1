// What merging a pull request would do to one target's live cluster: the
// result of `undrift preview` and of the app's preview comment. Built by
// previewTarget (src/preview/preview-target.ts) from two scans of the same
// cluster, head and base, and consumed only by the renderers (src/report/preview).
// Values are masked as in every drift report: a Secret's data never appears.

import type { PruneGuard } from "./change-set.ts";
import type { Change, DriftReport, KubeObject, ScanProblem, Source } from "./types.ts";

/** What applying head would do to a declared object. */
export type PreviewAction = "create" | "change" | "unchanged";

/** One object head declares, and what the apply would do to it. */
export interface PreviewResource {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  action: PreviewAction;
  source?: Source;
  /** For `change`: the fields the apply changes (`desired` is head's value, `live` the cluster's). */
  changes: Change[];
  /** For `change`: the live object, masked and cleaned, for the diff. */
  live?: KubeObject;
  /** For `create` and `change`: the object as the apply would leave it (with the server's defaults when the dry-run could run). */
  wouldBe?: KubeObject;
  /** Why `wouldBe` is the rendered object rather than the server's answer (a dry-run refused, a namespace made by this PR). */
  note?: string;
}

/**
 * What the merge does to a live object of the target's tracking set that head no longer declares:
 *   delete:  prune is true and every guard passes;
 *   orphan:  left running, untracked (prune false or preview for the target or a rule);
 *   keep:    left running because it opts out (its annotation or label), or the target still uses it;
 *   refused: prune is true but a guard stops it (an empty render, over maxPrunePercent, a Namespace or CRD).
 */
export type PruneAction = "delete" | "orphan" | "keep" | "refused";

export interface PrunePreview {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  action: PruneAction;
  /** Why, for every action but delete: the opt-out annotation, the guard and its reason. */
  reason?: string;
  guard?: PruneGuard;
}

/** The head render failed: where, so the reviewer can fix it. */
export interface PreviewError {
  message: string;
  file?: string;
  line?: number;
}

export interface PreviewSummary {
  create: number;
  change: number;
  unchanged: number;
  /** Objects the merge would delete. */
  prune: number;
  orphan: number;
  keep: number;
  /** Prunes a guard refuses. */
  refused: number;
  /** Drifted + missing + orphaned objects of the base scan: how far the cluster already is from the PR's base. */
  drift: number;
}

export interface PreviewReport {
  target: string;
  cluster: string;
  /** Commit SHAs (or the refs as given, when no SHA is known). */
  base: string;
  head: string;
  /**
   * previewed: head rendered and was compared with the cluster;
   * render-failed: head did not render (error says where);
   * failed: the cluster could not be read or was refused (error says why); nothing was compared.
   */
  status: "previewed" | "render-failed" | "failed";
  /** Why there is no preview, when status is not previewed. */
  error?: PreviewError;
  summary: PreviewSummary;
  /** Every object head declares, in render order (unchanged ones included, without diff). */
  resources: PreviewResource[];
  /** Live tracked objects head no longer declares. */
  prune: PrunePreview[];
  /** When a guard refused the whole prune (empty render, over maxPrunePercent): its reason, said once. */
  pruneRefused?: string;
  /**
   * The drift the cluster has now against base: a scan of base. Absent when the
   * target is new in head (base has no such target), or when baseError says why not
   * (base's config or render fails, or base binds the target to another cluster).
   */
  drift?: DriftReport;
  baseError?: string;
  /** What could not be compared in the head scan (forbidden kinds, refused dry-runs), as the scan reports them. */
  problems: ScanProblem[];
}
