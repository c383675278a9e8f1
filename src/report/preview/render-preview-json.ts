// `undrift preview --output json`: the preview for scripts and CI. Fields are
// copied one by one in a fixed order, so the key order is stable. A changed
// object is its field changes, as in the scan's JSON (the live object stays
// out); a created object carries `wouldBe`, the object as the API server would
// create it (its defaults included, Secret values masked), since the whole
// object is the change. The drift is the scan's own JSON shape, and stats
// count as the scan's do. preview-json-schema.ts describes every field.
import type { PreviewReport, PreviewResource, PrunePreview } from "../../model/preview-report.ts";
import { changeJson, problemJson, refJson, renderJson, statsJson } from "../render-json.ts";
import type { PreviewReportJson } from "./preview-json-schema.ts";

/** The preview as pretty-printed JSON (2 spaces), ending with a newline. */
export function renderPreviewJson(report: PreviewReport): string {
  const { create, change, unchanged, prune, orphan, keep, refused, drift } = report.summary;
  const json: PreviewReportJson = {
    target: report.target,
    cluster: report.cluster,
    base: report.base,
    head: report.head,
    status: report.status,
    error: report.error && { message: report.error.message, file: report.error.file, line: report.error.line },
    summary: { create, change, unchanged, prune, orphan, keep, refused, drift },
    resources: report.resources.map(resourceJson),
    prune: report.prune.map(pruneJson),
    pruneRefused: report.pruneRefused,
    // Parsed back from the scan's renderer, so both commands print drift alike.
    drift: report.drift && JSON.parse(renderJson(report.drift)),
    baseError: report.baseError,
    problems: report.problems.map(problemJson),
    stats: report.stats && statsJson(report.stats),
  };
  // JSON.stringify drops undefined members: cluster-scoped objects have no namespace, a previewed target no error.
  return `${JSON.stringify(json, null, 2)}\n`;
}

function resourceJson(resource: PreviewResource) {
  return {
    ...refJson(resource),
    action: resource.action,
    source: resource.source && { file: resource.source.file, document: resource.source.document },
    changes: resource.changes.map(changeJson),
    wouldBe: resource.action === "create" ? resource.wouldBe : undefined,
    note: resource.note,
    fails: resource.fails,
  };
}

function pruneJson(entry: PrunePreview) {
  return {
    ...refJson(entry),
    action: entry.action,
    reason: entry.reason,
    guard: entry.guard,
  };
}
