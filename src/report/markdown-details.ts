// One object's collapsible block in a GitHub comment: its diff in a fence and
// its changed fields as a table. A block never exceeds its budget: an
// oversized diff is cut inside the block, so the fence and </details> survive.

import { objectLabel, sourceLabel } from "../model/object-label.ts";
import type { Change, ResourceReport } from "../model/types.ts";
import { codeSpan, escapeHtml, escapeText, fenceFor } from "./markdown-escape.ts";
import { deletionText, whoCell } from "./markdown-who.ts";
import { unifiedDiff } from "./unified-diff.ts";

const CHANGES_HEAD = ["| Path | Desired | Live | Manager | Changed at |", "| --- | --- | --- | --- | --- |"];

export interface DetailsOptions {
  /** The word in bold in the summary; the object's status by default (a preview says create or change). */
  label?: string;
  /** Markdown put first inside the block, above the diff. */
  note?: string;
}

/** `<details>` for one object, at most `budget` characters; throws a RangeError if not even its summary fits. */
export function markdownDetails(resource: ResourceReport, budget: number, options: DetailsOptions = {}): string {
  const diff = unifiedDiff(resource);
  const rows = resource.changes.map(changeRow);
  const build = (keepDiff: number, keepRows: number) => assemble(resource, options, diff, keepDiff, rows, keepRows);
  const fits = (text: string) => text.length <= budget;
  // Cut the diff first: the change table is the short answer to "what changed", so it goes last.
  const keepDiff = largest(diff.length, (k) => fits(build(k, rows.length)));
  if (keepDiff >= 0) return build(keepDiff, rows.length);
  const keepRows = largest(rows.length, (k) => fits(build(0, k)));
  if (keepRows >= 0) return build(0, keepRows);
  throw new RangeError(`${objectLabel(resource)}: its summary alone exceeds ${budget} characters`);
}

function assemble(
  resource: ResourceReport,
  options: DetailsOptions,
  diff: string[],
  keepDiff: number,
  rows: string[],
  keepRows: number,
): string {
  const from = resource.source ? ` from <code>${escapeHtml(sourceLabel(resource.source))}</code>` : "";
  const label = options.label ?? resource.status;
  const out = [
    `<details><summary><b>${label}</b> <code>${escapeHtml(objectLabel(resource))}</code>${from}</summary>`,
    "",
  ];
  if (options.note) out.push(options.note, "");
  // A missing object's whole body is the change, so who deleted it leads the block.
  if (resource.deletedBy) out.push(`The cluster recorded it ${deletionText(resource.deletedBy)}.`, "");
  if (keepDiff > 0) {
    const kept = diff.slice(0, keepDiff).join("\n");
    const fence = fenceFor(kept);
    out.push(`${fence}diff`, kept, fence, "");
  }
  if (keepDiff < diff.length) out.push(`*… diff truncated (${diff.length - keepDiff} more lines)*`, "");
  if (keepRows > 0) out.push(...CHANGES_HEAD, ...rows.slice(0, keepRows), "");
  if (keepRows < rows.length) out.push(`*… ${rows.length - keepRows} more changed fields not shown*`, "");
  out.push("</details>");
  return out.join("\n");
}

function changeRow(change: Change): string {
  const cells = [
    codeSpan(change.path, { table: true }),
    valueCell(change.desired),
    valueCell(change.live),
    whoCell(change),
    change.changedAt ? escapeText(change.changedAt) : "",
  ];
  return `| ${cells.join(" | ")} |`;
}

/** A value as JSON in code (`"info"` vs `3` tells a string from a number); a side that does not set the field says so. */
function valueCell(value: unknown): string {
  if (value === undefined) return "*(not set)*";
  return codeSpan(JSON.stringify(value), { table: true });
}

/** The largest k in [0, n] for which `fits(k)` holds, `fits` being monotonic (true up to some k); -1 if none. */
function largest(n: number, fits: (k: number) => boolean): number {
  if (fits(n)) return n;
  let low = -1;
  let high = n;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
