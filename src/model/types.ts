// The data every stage passes along: Kubernetes objects as plain JSON, desired
// objects with the place in Git they came from, and the drift report.

/** A Kubernetes object as the API returns it or a manifest declares it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  managedFields?: ManagedFieldsEntry[];
  resourceVersion?: string;
  uid?: string;
  [field: string]: unknown;
}

/** One entry of `metadata.managedFields`: which manager owns which fields, since when. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: "Apply" | "Update";
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** The `fieldsV1` trie: keys are `f:<field>`, `k:<json key>`, `v:<json value>`, `i:<index>` or `.`. */
export type FieldsV1 = { [key: string]: FieldsV1 };

/** Where a desired object was declared: a path relative to the repository, and the document's index in that file. */
export interface Source {
  file: string;
  document: number;
}

/** An object rendered from Git, with its source. */
export interface DesiredObject {
  object: KubeObject;
  source: Source;
  /**
   * JSON pointers of the fields whose value holds Secret data substituted into a non-Secret object (a Flux
   * post-build variable from a Secret; "" is the whole object): masked in every report like a Secret's values.
   */
  sensitive?: string[];
}

/** Identity of an object across versions, as Argo CD's gitops-engine pairs them: no version in it. */
export interface ObjectKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** What a scan finds of an object: DESIGN.md's words, and the JSON report's `status`. */
export type ResourceStatus = "in-sync" | "drifted" | "missing" | "orphaned";

/** The findings that are drift: what codify edits Git for, and what a revert record lists. */
export type DriftStatus = Exclude<ResourceStatus, "in-sync">;

/** The findings of an object Git declares: what an apply acts on (an orphan is prune's). */
export type DeclaredStatus = Exclude<ResourceStatus, "orphaned">;

/** One field that differs. `desired`/`live` are absent where that side does not set the field. */
export interface Change {
  /** JSON pointer into the live object (or the desired object where live lacks the field). */
  path: string;
  desired?: unknown;
  live?: unknown;
  /** The managedFields manager that last wrote the live field. */
  manager?: string;
  /** When that manager last wrote it (its managedFields `time`). */
  changedAt?: string;
  /** Who made that write, from the cluster's own records of it (write-record.ts); absent when no record fits. */
  actor?: Actor;
}

/** The person or service account behind a field's last write, and how sure the match is. */
export interface Actor {
  username: string;
  groups: string[];
  /** `namespace:name` when the username is a service account's. */
  serviceAccount?: string;
  userAgent?: string;
  sourceIP?: string;
  /** When the cluster recorded the write, ISO 8601. */
  at: string;
  /**
   * `exact`: the record names the same field manager (or a user agent that fits it) and says its write changed
   * the field. `likely`: the record does not say both, and its writer is the one person writing near that time.
   */
  confidence: "exact" | "likely";
}

export interface ResourceReport {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  status: ResourceStatus;
  source?: Source;
  changes: Change[];
  /** For an object in sync because its reconciler's annotation says to leave it alone: that annotation. */
  leftAlone?: string;
  /** For a missing object: who deleted it, when the cluster's newest record of the object is its deletion; absent otherwise. */
  deletedBy?: Actor;
  /** Objects that would be changed: the live object and the object applying Git would produce, masked and cleaned, for diffs. */
  live?: KubeObject;
  wouldBe?: KubeObject;
}

/** A kind (or object) that could not be compared, with why; the rest of the scan goes on. */
export interface ScanProblem {
  kind: string;
  group: string;
  namespace?: string;
  name?: string;
  message: string;
}

/** The reconciler object a discovered target follows (`discover:`): the target's origin, and what its report names. */
export interface ReconcilerRef {
  from: "flux" | "argo";
  kind: string;
  namespace: string;
  name: string;
  /** The object tells its reconciler to stand still (Flux `suspend`): drift is expected while it does. */
  suspended?: boolean;
  /** The revision the reconciler says it last applied (Flux `status.lastAppliedRevision`), when it says. */
  lastAppliedRevision?: string;
}

export interface DriftReport {
  target: string;
  revision: string;
  /** For a discovered target: the reconciler's object it follows, whether it is suspended, what it last applied. */
  reconciler?: ReconcilerRef;
  summary: { inSync: number; drifted: number; missing: number; orphaned: number };
  resources: ResourceReport[];
  problems: ScanProblem[];
  /** Stable hash of the drift itself (never of timestamps), to tell "same drift as before" from "new drift". */
  fingerprint: string;
  stats?: ScanStats;
}

/** What a scan (or a preview) cost, and how many objects it judged; docs/report.md describes each. */
export interface ScanStats {
  /** The objects the report lists: every entry of `resources` (declared ones compared, and orphans). */
  objects: number;
  requests: number;
  durationMs: number;
  dryRuns: number;
  /** The objects Git declares for the target (rendered), compared or not: a kind that could not be read leaves its objects out of `resources`. */
  desired: number;
  /**
   * In the app's worker, which answers LISTs from its watches of the cluster: how many kinds came from a
   * current watch, and how many were LISTed because none was (the cache could not be trusted, or the
   * identity may not watch the kind); and how many dry-runs were not sent because an earlier scan's answer
   * for the same request against the same state of the live object was kept (not counted in `dryRuns`).
   */
  cache?: { watched: number; listed: number; dryRunsReused: number };
}
