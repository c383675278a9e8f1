// A preview's counts: what head creates, changes and leaves alone, what the
// merge would prune, keep or refuse to prune, and the drift base already has.
import type { PreviewResource, PreviewSummary, PrunePreview } from "../../model/preview-report.ts";
import type { ScanResult } from "../scan/scan-target.ts";

export function summarizePreview(
  resources: PreviewResource[],
  prune: PrunePreview[],
  baseScan: ScanResult | undefined,
): PreviewSummary {
  // The words are the preview's own (PreviewAction, PruneAction), so a misspelt one does not compile.
  const count = <T extends { action: string }>(list: T[], action: T["action"]) =>
    list.filter((x) => x.action === action).length;
  const drift = baseScan?.report.summary;
  return {
    create: count(resources, "create"),
    change: count(resources, "change"),
    unchanged: count(resources, "unchanged"),
    prune: count(prune, "delete"),
    orphan: count(prune, "orphan"),
    keep: count(prune, "keep"),
    refused: count(prune, "refused"),
    drift: drift ? drift.drifted + drift.missing + drift.orphaned : 0,
  };
}
