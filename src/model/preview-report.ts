// What merging a pull request would do to one target's live cluster: the
// result of `undrift preview` and of the app's preview comment. Built by
// previewTarget (src/stages/preview/preview-target.ts) from two scans of the same
// cluster, head and base, and consumed only by the renderers (src/report/preview).
// Values are masked as in every drift report: a Secret's data never appears.

import { type Action, applyAction, isDeletion, type ObjectRecord, type PruneGuard } from "./change-set.ts";
import type { Change, DeclaredStatus, DriftReport, KubeObject, ScanProblem, ScanStats, Source } from "./types.ts";

/**
 * The preview's words for the change-set's actions: its JSON contract, and the comment, check run and
 * terminal that show it, say `create`, `change`, `unchanged` and `delete`. The one place they are spelled.
 */
export const previewWord = {
  created: "create",
  configured: "change",
  unchanged: "unchanged",
  deleted: "delete",
} as const satisfies Partial<Record<Action, string>>;

/** What applying head would do to a declared object: applyAction in the preview's words. */
export type PreviewAction = (typeof previewWord)[(typeof applyAction)[DeclaredStatus]];

/** The preview's word for what applying head does to a declared object the head scan found so. */
export function previewAction(status: DeclaredStatus): PreviewAction {
  return previewWord[applyAction[status]];
}

const findingOfAction = Object.fromEntries(
  (Object.entries(applyAction) as Array<[DeclaredStatus, keyof typeof previewWord]>).map(([status, action]) => [
    previewWord[action],
    status,
  ]),
) as Record<PreviewAction, DeclaredStatus>;

/** The scan's finding behind a preview's word (a create is the drift report's missing: no live side). */
export function previewFinding(action: PreviewAction): DeclaredStatus {
  return findingOfAction[action];
}

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
  /** The server's dry-run refused the object as invalid (400, 422): the apply would fail, for this reason. */
  fails?: string;
}

/**
 * The preview's words for a prune's skipped action, by the guard that held the orphan back:
 *   orphan:  left running, untracked (prune false or preview for the target or a rule);
 *   keep:    left running because it opts out (its annotation or label), is not tracked, the target still uses it,
 *            or another target of the repository declares it;
 *   refused: prune is true but a guard stops it (an empty render, over maxPrunePercent, a Namespace or CRD,
 *            another target that does not render).
 */
export const pruneSkipWord = {
  "not-requested": "orphan",
  untracked: "keep",
  "opted-out": "keep",
  "in-use": "keep",
  "empty-render": "refused",
  "skipped-documents": "refused",
  selector: "refused",
  kind: "refused",
  "max-percent": "refused",
  "declared-elsewhere": "keep",
  "others-unknown": "refused",
} as const satisfies Record<PruneGuard, string>;

/** What the merge does to a live object of the target's tracking set that head no longer declares (delete: prune is true and every guard passes). */
export type PruneAction = (typeof previewWord)["deleted"] | (typeof pruneSkipWord)[PruneGuard];

/** A prune record (deleted, or skipped with its guard) in the preview's words; a skip that names no guard is refused. */
export function pruneAction(record: Pick<ObjectRecord, "action" | "guard">): PruneAction {
  // An orphan already being deleted goes with the merge as with a delete: the reason says what holds it.
  if (isDeletion(record)) return previewWord.deleted;
  return record.guard ? pruneSkipWord[record.guard] : "refused";
}

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
  /**
   * What the preview cost, as the scan's stats: objects is every entry of resources and prune, desired what head
   * declares; requests, dry-runs and duration cover both scans and the dry-run creates. Absent when nothing ran.
   */
  stats?: ScanStats;
}
