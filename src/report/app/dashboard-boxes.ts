// The checkboxes of a tracking issue's dashboard and how they are read back:
// each box is a task-list line carrying a hidden marker
// `<!-- undrift:box action=codify id=3f2a9c01d4e5b6a7 -->`, whose id is a hash
// of (target, action, object, field), so it stays the same from one scan to the
// next and whatever people do to the visible text. An edit is judged by
// comparing the body before with the body after: a box ticked now that was
// not ticked before is a request.
import { keyString, refKey } from "../../model/object-key.ts";
import type { ObjectRef } from "../../model/object-label.ts";
import { shortHash } from "../../model/short-hash.ts";
import { formatMarker } from "../markers.ts";

/** What a box asks for. */
export const DASHBOARD_ACTIONS = ["codify", "revert", "ignore", "snooze-1d", "snooze-7d", "rescan"] as const;
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

/** One box read out of a body. */
export interface BoxState {
  id: string;
  action: DashboardAction;
  checked: boolean;
}

/** One box asked for: its id and its action. */
export interface TickedBox {
  id: string;
  action: DashboardAction;
}

/** The id of a box: the same target, action, object and field always give the same id. */
export function boxId(params: { target: string; action: DashboardAction; ref?: ObjectRef; path?: string }): string {
  const object = params.ref ? keyString(refKey(params.ref)) : "";
  return shortHash(`${params.target}\u0000${params.action}\u0000${object}\u0000${params.path ?? ""}`);
}

/** `- [ ] <label> <!-- undrift:box ... -->`, indented by `depth` levels. */
export function boxLine(params: { id: string; action: DashboardAction; label: string; depth?: number }): string {
  const indent = "  ".repeat(params.depth ?? 0);
  return `${indent}- [ ] ${params.label} ${formatMarker("box", { action: params.action, id: params.id })}`;
}

const boxPattern = /^(\s*[-*+] \[)([ xX])(\] .*?)<!-- undrift:box action=([a-z0-9-]+) id=([0-9a-f]+) -->\s*$/;

/** Every box of `body`, in order; a line whose marker was edited into something else is not a box. */
export function readBoxes(body: string | null | undefined): BoxState[] {
  const boxes: BoxState[] = [];
  for (const line of (body ?? "").split(/\r?\n/)) {
    const match = boxPattern.exec(line);
    if (!match || !isAction(match[4]!)) continue;
    boxes.push({ id: match[5]!, action: match[4], checked: match[2] !== " " });
  }
  return boxes;
}

/** The boxes ticked in `after` that were not ticked in `before` (a box new in `after` and ticked counts too). */
export function newlyTicked(before: string | null | undefined, after: string | null | undefined): TickedBox[] {
  const was = new Set(
    readBoxes(before)
      .filter((b) => b.checked)
      .map((b) => b.id),
  );
  const seen = new Set<string>();
  const ticked: TickedBox[] = [];
  for (const box of readBoxes(after)) {
    if (!box.checked || was.has(box.id) || seen.has(box.id)) continue;
    seen.add(box.id);
    ticked.push({ id: box.id, action: box.action });
  }
  return ticked;
}

/** `body` with the boxes of `ids` unticked; every other character as it was. */
export function untick(body: string, ids: ReadonlySet<string>): string {
  return body
    .split("\n")
    .map((line) => {
      const match = boxPattern.exec(line.replace(/\r$/, ""));
      return match && ids.has(match[5]!) && match[2] !== " " ? line.replace(/\[[xX]\]/, "[ ]") : line;
    })
    .join("\n");
}

/** The log marker: lines saying who asked for what go right below it. */
export const LOG_MARKER = formatMarker("log", { of: "dashboard" });

/** `body` with `lines` added below the log marker (newest first), or at the end when people removed the marker. */
export function addLogLines(body: string, lines: string[]): string {
  if (lines.length === 0) return body;
  const text = lines.map((l) => `- ${l}`).join("\n");
  const at = body.indexOf(LOG_MARKER);
  if (at < 0) return `${body}\n\n${text}`;
  const end = at + LOG_MARKER.length;
  return `${body.slice(0, end)}\n${text}${body.slice(end)}`;
}

/** `body` with the log line `before` rewritten as `after`; unchanged when `before` is not among its lines. */
export function replaceLogLine(body: string, before: string, after: string): string {
  const lines = body.split("\n");
  const at = lines.indexOf(`- ${before}`);
  if (at < 0) return body;
  lines[at] = `- ${after}`;
  return lines.join("\n");
}

function isAction(value: string): value is DashboardAction {
  return (DASHBOARD_ACTIONS as readonly string[]).includes(value);
}
