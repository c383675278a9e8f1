// What the status page keeps of a scan: the target's state and counts, and of
// each object not in sync its name, its changed fields' paths, who changed them
// and when. Never a value: a Change's `desired` and `live` are left behind here,
// so nothing stored for the page can hold a Secret's data, masked or not.
import type { DriftReport, DriftStatus } from "../../model/types.ts";
import { personOf } from "../describe-actor.ts";

/** The states a target's row shows. */
export type TargetState = "in-sync" | "drifted" | "failing";

/** One changed field: its JSON pointer, and the managedFields manager and time of its live value. */
export interface StatusChange {
  path: string;
  manager?: string;
  changedAt?: string;
  /** The person whose write produced it, `alice (sre)`, from the cluster's records of writes (absent when unknown). */
  by?: string;
}

/** One object not in sync, as the page lists it. */
export interface StatusObject {
  kind: string;
  namespace?: string;
  name: string;
  status: DriftStatus;
  /** Who deleted a missing object, `bob (dev)`, when the cluster recorded it. */
  deletedBy?: string;
  changes: StatusChange[];
  /** Changes left out to keep the record small. */
  moreChanges: number;
}

/** A target's last known state, as the worker records it after each scan. */
export interface TargetStatus {
  repo: string;
  target: string;
  cluster: string;
  state: TargetState;
  /** When the last scan that produced a report finished (ISO 8601). */
  scannedAt?: string;
  revision?: string;
  counts: { inSync: number; drifted: number; missing: number; orphaned: number };
  objects: StatusObject[];
  /** Objects left out to keep the record small. */
  moreObjects: number;
  /** The tracking issue and the drift pull request the modes last wrote. */
  links: { issue?: string; pr?: string };
  /** A failing target: when its scan failed for good, and the error's one masked line. */
  failure?: { at: string; message: string };
}

/** A target's row: its last state and its chart's points, `[time in ms, objects out of sync]`, oldest first. */
export interface TargetHistory {
  status: TargetStatus;
  points: Array<[number, number]>;
}

/** At most this many objects, each with at most this many changes, are kept per target. */
export const MAX_OBJECTS = 100;
export const MAX_CHANGES = 20;

/** The record of a finished scan; `links` are the ones it wrote, else the ones the last record had. */
export function statusSummary(params: {
  repo: string;
  cluster: string;
  report: DriftReport;
  scannedAt: Date;
  links?: TargetStatus["links"];
}): TargetStatus {
  const { report } = params;
  const drifting = report.resources.filter((r) => r.status !== "in-sync");
  const objects = drifting.slice(0, MAX_OBJECTS).map(
    (r): StatusObject => ({
      kind: r.kind,
      ...(r.namespace ? { namespace: r.namespace } : {}),
      name: r.name,
      status: r.status as DriftStatus,
      ...(r.deletedBy ? { deletedBy: personOf(r.deletedBy) } : {}),
      changes: r.changes.slice(0, MAX_CHANGES).map((c) => ({
        path: c.path,
        ...(c.manager ? { manager: c.manager } : {}),
        ...(c.changedAt ? { changedAt: c.changedAt } : {}),
        ...(c.actor ? { by: personOf(c.actor) } : {}),
      })),
      moreChanges: Math.max(0, r.changes.length - MAX_CHANGES),
    }),
  );
  const { inSync, drifted, missing, orphaned } = report.summary;
  return {
    repo: params.repo,
    target: report.target,
    cluster: params.cluster,
    state: drifted + missing + orphaned > 0 ? "drifted" : "in-sync",
    scannedAt: params.scannedAt.toISOString(),
    revision: report.revision,
    counts: { inSync, drifted, missing, orphaned },
    objects,
    moreObjects: Math.max(0, drifting.length - MAX_OBJECTS),
    links: params.links ?? {},
  };
}

/** The objects a target has out of sync: what the chart draws. */
export function driftCount(status: Pick<TargetStatus, "counts">): number {
  return status.counts.drifted + status.counts.missing + status.counts.orphaned;
}
