// The live objects head no longer declares, with what the merge would do to
// each and why: one table, sliced so a long prune can span parts.

import { objectLabel } from "../../model/object-label.ts";
import type { PruneAction, PrunePreview } from "../../model/preview-report.ts";
import { codeSpan, escapeText } from "../markdown-escape.ts";
import { chunk } from "../split-parts.ts";
import type { PreviewBlock } from "./types.ts";

const ACTIONS: Record<PruneAction, string> = {
  delete: "**would be deleted**",
  orphan: "**would be orphaned**",
  keep: "**kept**",
  refused: "**refused**",
};

const HEAD = "| Object | Action | Reason |\n| --- | --- | --- |";

/** The prune preview as table slices of at most `budget` characters, the header atop each, the first one titled. */
export function pruneTable(params: { target: string; prune: PrunePreview[]; budget: number }): PreviewBlock[] {
  const { target, prune, budget } = params;
  if (prune.length === 0) return [];
  const title = `**Live objects head no longer declares** (${prune.length}):\n\n`;
  // Every slice keeps room for the title and the header, so each fits whether titled or not.
  const slices = chunk(prune.map(pruneRow), budget - title.length - HEAD.length - 1);
  return slices.map((rows, i) => ({
    render: () => `${i === 0 ? title : ""}${HEAD}\n${rows.join("\n")}`,
    rank: 1,
    objects: rows.length,
    target,
  }));
}

function pruneRow(entry: PrunePreview): string {
  const why = entry.reason ? escapeText(entry.reason, 400) : "";
  const guard = entry.guard ? `${why ? " " : ""}(guard ${codeSpan(entry.guard, { table: true })})` : "";
  return `| ${codeSpan(objectLabel(entry), { table: true })} | ${ACTIONS[entry.action]} | ${why}${guard} |`;
}
