// The body of a revert pull request: what merging it will do (apply Git to
// the objects listed, and only to them), where the record lives, and the drift
// report. The hidden marker with the drift fingerprint is added by ensureDriftPr.

import { groupOf, keyString } from "../../model/object-key.ts";
import { objectLabel } from "../../model/object-label.ts";
import type { DriftReport, DriftStatus } from "../../model/types.ts";
import type { RevertRecord } from "../../plan/revert/revert-record.ts";
import { renderMarkdown } from "../render-markdown.ts";

// GitHub's body limit is 65,536; the lists and the marker need room beside the report.
const REPORT_LIMIT = 48_000;
const LISTED = 100;

const VERBS = {
  drifted: "re-apply Git's fields",
  missing: "create it from Git",
  orphaned: "prune it if the target's `prune` is true and no prune guard holds it back",
} as const satisfies Record<DriftStatus, string>;

export function revertPrBody(params: {
  report: DriftReport;
  record: RevertRecord;
  file: string;
  /** Fields ignoreDifferences keeps at their live values, by object key (keptLive), said as revert --dry-run says them. */
  kept?: ReadonlyMap<string, string[]>;
}): string {
  const { report, record } = params;
  const line = (o: RevertRecord["objects"][number]) => {
    const fields = o.changes.length > 0 ? `: ${o.changes.map((c) => `\`${c.path}\``).join(", ")}` : "";
    const key = keyString({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.namespace ?? "", name: o.name });
    const kept = params.kept?.get(key);
    const keeps = kept ? `; kept live ${kept.join(", ")} (ignoreDifferences)` : "";
    return `- \`${objectLabel(o)}\` (${o.status}, ${VERBS[o.status]})${fields}${keeps}`;
  };
  const more =
    record.objects.length > LISTED ? [`- … and ${record.objects.length - LISTED} more (see the record)`] : [];
  const sections = [
    `Merging this pull request makes undrift apply Git to the cluster \`${record.cluster}\` for target \`${record.target}\` (server-side apply with its field manager), for the objects below and only for the drift recorded in \`${params.file}\`. On merge it scans again: what still matches this record is applied; drift that changed or appeared after this pull request was opened is reported on it, never applied unseen. Close it without merging to apply nothing; undrift closes it by itself when the drift goes away.`,
    ["**What merging will do**", "", ...record.objects.slice(0, LISTED).map(line), ...more].join("\n"),
  ];
  const parts = renderMarkdown(report, { maxLength: REPORT_LIMIT });
  const cont = parts.length > 1 ? `\n\n_The report continues in the check run \`undrift/${report.target}\`._` : "";
  sections.push(`${parts[0] ?? ""}${cont}`);
  return sections.join("\n\n");
}
