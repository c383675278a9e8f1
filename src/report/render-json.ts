// `--output json`: exactly the shape DESIGN.md documents, for scripts and CI.
// Fields are copied one by one, so the live and would-be objects (and anything
// else the engine adds later) never leak into a contract that others parse.
import type { ObjectRef } from "../model/object-label.ts";
import type { Change, DriftReport, ResourceReport, ScanProblem } from "../model/types.ts";

/** The report as pretty-printed JSON (2 spaces), ending with a newline. */
export function renderJson(report: DriftReport): string {
  const { inSync, drifted, missing, orphaned } = report.summary;
  const json = {
    target: report.target,
    revision: report.revision,
    summary: { inSync, drifted, missing, orphaned },
    resources: report.resources.map(resourceJson),
    fingerprint: report.fingerprint,
    problems: report.problems.map(problemJson),
    stats: report.stats && {
      objects: report.stats.objects,
      requests: report.stats.requests,
      durationMs: report.stats.durationMs,
      dryRuns: report.stats.dryRuns,
    },
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
