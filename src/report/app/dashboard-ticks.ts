// The items a dashboard codify or revert pull request carries, kept in its body
// as a hidden comment (as the ignore PR keeps its ticks, ignore-pr-body.ts), so
// a later tick adds to them instead of replacing them, and a later scan can
// tell whether the drift the PR carries is gone:
//   <!-- undrift:dashboard-ticks [{"ref":{...},"path":"/spec/replicas"}] -->
import type { DriftItem } from "../../plan/selected-drift.ts";

const START = "<!-- undrift:dashboard-ticks ";
const END = " -->";

/** The items as a hidden comment; `>` and `--` are escaped so no name or pointer can end the comment early. */
export function formatDashboardTicks(items: readonly DriftItem[]): string {
  return `${START}${JSON.stringify(items).replace(/>/g, "\\u003e").replace(/--/g, "-\\u002d")}${END}`;
}

/** The items a pull request body carries; undefined when it has no such comment (a PR a mode opened). */
export function readDashboardTicks(body: string | null | undefined): DriftItem[] | undefined {
  const start = (body ?? "").indexOf(START);
  if (start < 0) return undefined;
  const from = start + START.length;
  const end = body!.indexOf(END, from);
  try {
    const parsed: unknown = JSON.parse(body!.slice(from, end));
    return Array.isArray(parsed) ? parsed.filter(isItem) : [];
  } catch {
    // A body someone edited by hand: its items are lost, the new ones still count.
    return [];
  }
}

function isItem(value: unknown): value is DriftItem {
  const item = value as DriftItem;
  return (
    typeof item === "object" &&
    item !== null &&
    typeof item.ref?.kind === "string" &&
    typeof item.ref?.name === "string" &&
    (item.path === undefined || typeof item.path === "string")
  );
}
