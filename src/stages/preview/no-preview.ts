// The empty parts of a report that compared nothing (a head that did not render, a cluster that could not be read).
import type { PreviewReport } from "../../model/preview-report.ts";

export function noPreview(): Pick<PreviewReport, "summary" | "resources" | "prune" | "problems"> {
  const summary = { create: 0, change: 0, unchanged: 0, prune: 0, orphan: 0, keep: 0, refused: 0, drift: 0 };
  return { summary, resources: [], prune: [], problems: [] };
}
