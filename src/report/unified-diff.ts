// The diff a reviewer reads: the YAML of the live object against the YAML that
// applying Git would produce, as `kubectl diff` prints it.
// The patch module alone (4 modules, not the package's 19): every scan's report loads this file.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff/lib/patch/create.js";
import type { StructuredPatch } from "diff/lib/types.js";
import { stringify } from "yaml";
import { objectFileName } from "../model/object-label.ts";
import type { KubeObject, ResourceReport } from "../model/types.ts";

const CONTEXT_LINES = 3;
/** Myers' diff grows with the square of the edits: past this many (~50 ms), one replacing hunk is shown instead. */
const MAX_EDITS = 1000;

/**
 * Unified diff lines (`---`, `+++`, `@@` hunks) of `live` against `wouldBe`; an
 * absent side (missing, orphaned) is `/dev/null`, as in git. Empty when there is
 * nothing to show.
 */
export function unifiedDiff(resource: ResourceReport): string[] {
  const { live, wouldBe } = resource;
  if (!live && !wouldBe) return [];
  const name = objectFileName(resource);
  const oldName = live ? `live/${name}` : "/dev/null";
  const newName = wouldBe ? `git/${name}` : "/dev/null";
  const before = toYaml(live);
  const after = toYaml(wouldBe);
  const patch =
    structuredPatch(oldName, newName, before, after, undefined, undefined, {
      context: CONTEXT_LINES,
      maxEditLength: MAX_EDITS,
    }) ?? replacingPatch(oldName, newName, before, after);
  // Two headers and no hunk: the objects print the same, so there is no diff to show.
  if (patch.hunks.length === 0) return [];
  const lines = formatPatch(patch, FILE_HEADERS_ONLY).split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** YAML in the object's own key order; no folding (lineWidth 0) and no anchors, so every line diffs as written. */
function toYaml(object: KubeObject | undefined): string {
  return object ? stringify(object, { lineWidth: 0, aliasDuplicateObjects: false }) : "";
}

/**
 * A correct but coarse patch for texts too different to diff line by line in
 * good time: the lines between the common head and tail, all removed then all
 * added, in one hunk with the usual context.
 */
function replacingPatch(oldName: string, newName: string, before: string, after: string): StructuredPatch {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a.at(-1 - tail) === b.at(-1 - tail)) tail++;
  const from = Math.max(0, head - CONTEXT_LINES);
  const leading = a.slice(from, head);
  const trailing = a.slice(a.length - tail, a.length - tail + CONTEXT_LINES);
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const hunk = {
    oldStart: from + 1,
    oldLines: leading.length + removed.length + trailing.length,
    newStart: from + 1,
    newLines: leading.length + added.length + trailing.length,
    lines: [
      ...leading.map((l) => ` ${l}`),
      ...removed.map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...trailing.map((l) => ` ${l}`),
    ],
  };
  return { oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: [hunk] };
}

/** Lines of YAML text, which ends with a newline (or is empty). */
function splitLines(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}
