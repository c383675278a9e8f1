// `--output json`: the shape DESIGN.md documents plus additive fields, all
// described in report-json-schema.ts (and docs/report.md), for scripts and CI.
// Fields are copied one by one, so the engine's working data (a drifted
// object's live and would-be bodies, anything it adds later) never leaks into
// a contract that others parse. A missing object carries its would-be body,
// since the whole object is the change, as the text report shows it.
import type { ObjectRef } from "../model/object-label.ts";
import type { Actor, Change, DriftReport, ResourceReport, ScanProblem, ScanStats } from "../model/types.ts";
import type { ScanReportJson } from "./report-json-schema.ts";

/** The report as pretty-printed JSON (2 spaces), ending with a newline. */
export function renderJson(report: DriftReport): string {
  const { inSync, drifted, missing, orphaned } = report.summary;
  const json: ScanReportJson = {
    target: report.target,
    revision: report.revision,
    reconciler: report.reconciler && { ...report.reconciler },
    summary: { inSync, drifted, missing, orphaned },
    resources: report.resources.map(resourceJson),
    fingerprint: report.fingerprint,
    problems: report.problems.map(problemJson),
    stats: report.stats && statsJson(report.stats),
  };
  // JSON.stringify drops undefined members: cluster-scoped objects have no namespace, orphans no source.
  return `${JSON.stringify(json, null, 2)}\n`;
}

function resourceJson(resource: ResourceReport) {
  return {
    ...refJson(resource),
    status: resource.status,
    source: resource.source && { file: resource.source.file, document: resource.source.document },
    changes: resource.changes.map(changeJson),
    leftAlone: resource.leftAlone,
    deletedBy: resource.deletedBy && actorJson(resource.deletedBy),
    // Masked at the engine's exit (mask.ts): a Secret's values are *** here, as in the text's diff.
    wouldBe: resource.status === "missing" ? resource.wouldBe : undefined,
  };
}

/** Which object, first in every object's JSON (scan, preview, codify): apiVersion, kind, namespace (none when cluster-scoped), name. */
export function refJson(ref: ObjectRef) {
  return { apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace, name: ref.name };
}

/** One field change in the contract's shape; the preview's JSON uses it too. */
export function changeJson(change: Change) {
  return {
    path: change.path,
    desired: change.desired,
    live: change.live,
    manager: change.manager,
    changedAt: change.changedAt,
    actor: change.actor && actorJson(change.actor),
  };
}

/** Who made a write, field by field: a change's writer, or a missing object's deleter. */
function actorJson(actor: Actor) {
  return {
    username: actor.username,
    groups: actor.groups,
    serviceAccount: actor.serviceAccount,
    userAgent: actor.userAgent,
    sourceIP: actor.sourceIP,
    at: actor.at,
    confidence: actor.confidence,
  };
}

/** One problem in the contract's shape. */
export function problemJson(problem: ScanProblem) {
  return {
    kind: problem.kind,
    group: problem.group,
    namespace: problem.namespace,
    name: problem.name,
    message: problem.message,
  };
}

/** What a scan or preview cost, in the order scripts have read since the first version (desired came later). */
export function statsJson(stats: ScanStats) {
  return {
    objects: stats.objects,
    requests: stats.requests,
    durationMs: stats.durationMs,
    dryRuns: stats.dryRuns,
    desired: stats.desired,
    ...(stats.cache
      ? {
          cache: {
            watched: stats.cache.watched,
            listed: stats.cache.listed,
            dryRunsReused: stats.cache.dryRunsReused,
          },
        }
      : {}),
  };
}
