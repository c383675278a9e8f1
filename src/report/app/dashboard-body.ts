// The dashboard part of a tracking issue: a task-list box per action on each
// drifted, missing or orphaned object (and per field of a drifted one), one
// "rescan now" box for the target, what is snoozed until when and by whom, and
// the recent lines saying who asked for what. Objects codify cannot handle (a
// Secret, helm output) offer revert and ignore only. Large targets fold into a
// `<details>` section per kind and, past the length budget, say how many
// objects are not shown; every box shown keeps its marker.
//
//   const boxes = dashboardBoxes({ report, codifiable });          // id -> what it asks, for the worker
//   const text = renderDashboard({ report, codifiable, snoozes, log, maxLength: 30_000 });
import type { ObjectRef } from "../../model/object-label.ts";
import { objectLabel } from "../../model/object-label.ts";
import type { DriftReport, ResourceReport } from "../../model/types.ts";
import { codeSpan, escapeHtml } from "../markdown-escape.ts";
import { boxId, boxLine, type DashboardAction, LOG_MARKER } from "./dashboard-boxes.ts";

/** What a box asks for: the action, and the object and field it is about (none for rescan). */
export interface DashboardItem {
  action: DashboardAction;
  ref?: ObjectRef;
  /** The field's JSON pointer; absent for the whole object. */
  path?: string;
}

/** An object the dashboard does not report until `until`, and who asked. */
export interface ShownSnooze {
  ref: ObjectRef;
  until: string;
  by: string;
}

export interface DashboardParams {
  report: DriftReport;
  /** Whether codify can handle the object; a Secret and helm output cannot (stages/codify). */
  codifiable: (resource: ResourceReport) => boolean;
  snoozes?: ShownSnooze[];
  /** Recent lines, newest first, each already one line of markdown. */
  log?: string[];
  maxLength: number;
}

// Above this many objects every kind folds into its own <details>, so the issue stays readable.
const FOLD_OVER = 20;
const FIELD_ACTIONS: readonly DashboardAction[] = ["codify", "revert", "ignore"];
const OBJECT_ACTIONS: readonly DashboardAction[] = ["codify", "revert", "ignore", "snooze-1d", "snooze-7d"];
const LABELS: Record<DashboardAction, string> = {
  codify: "codify",
  revert: "revert",
  ignore: "ignore",
  "snooze-1d": "snooze 1 day",
  "snooze-7d": "snooze 7 days",
  rescan: "**rescan now**",
};

/** Every box the dashboard of `report` can show, by id. */
export function dashboardBoxes(params: Pick<DashboardParams, "report" | "codifiable">): Map<string, DashboardItem> {
  const { report } = params;
  const target = report.target;
  const boxes = new Map<string, DashboardItem>();
  boxes.set(boxId({ target, action: "rescan" }), { action: "rescan" });
  for (const resource of drifting(report)) {
    const ref = refOf(resource);
    for (const action of objectActions(resource, params.codifiable))
      boxes.set(boxId({ target, action, ref }), { action, ref });
    for (const path of fieldPaths(resource))
      for (const action of fieldActions(resource, params.codifiable))
        boxes.set(boxId({ target, action, ref, path }), { action, ref, path });
  }
  return boxes;
}

/** The dashboard's markdown, at most `maxLength` characters whatever the size of the report. */
export function renderDashboard(params: DashboardParams): string {
  const { report } = params;
  const target = report.target;
  const head = [
    "## Act on this drift",
    "",
    "Tick a box to act (write access to the repository needed). undrift does it once, unticks the box and says below who asked for what.",
    "",
    boxLine({ id: boxId({ target, action: "rescan" }), action: "rescan", label: LABELS.rescan }),
    "",
    "",
  ].join("\n");
  const tail = [...snoozeLines(params.snoozes ?? []), ...logLines(params.log ?? [])].join("\n");
  let room = params.maxLength - head.length - tail.length - 200;
  const objects = drifting(report);
  const fold = objects.length > FOLD_OVER;
  const kinds = new Map<string, ResourceReport[]>();
  for (const r of objects) kinds.set(r.kind, [...(kinds.get(r.kind) ?? []), r]);
  const parts: string[] = [];
  let hidden = 0;
  for (const [kind, resources] of kinds) {
    const open = fold ? `<details><summary>${escapeHtml(kind)}: ${resources.length} object(s)</summary>\n\n` : "";
    const close = fold ? "\n</details>\n" : "";
    let section = "";
    let shown = 0;
    for (const resource of resources) {
      const text = `${objectSection(resource, params.codifiable, target)}\n`;
      // Keep room for this kind's closing tag and note, and the notes of the kinds after it.
      if (text.length + open.length + close.length + 300 > room) break;
      section += text;
      room -= text.length;
      shown++;
    }
    const missing = resources.length - shown;
    hidden += missing;
    const note =
      missing > 0 ? `\n_${missing} more ${escapeHtml(kind)} object(s) not shown here (GitHub's length limit)._\n` : "";
    const block = `${open}${section}${note}${close}`;
    parts.push(block);
    room -= open.length + close.length + note.length;
  }
  const total =
    hidden > 0 ? `\n_${hidden} object(s) in all are not shown with boxes; the check run lists every one._\n` : "";
  return `${`${head}${parts.join("\n")}${total}`.trimEnd()}\n\n${tail.trimStart()}`.trimEnd();
}

function objectSection(resource: ResourceReport, codifiable: DashboardParams["codifiable"], target: string): string {
  const ref = refOf(resource);
  const why = codifiable(resource) ? "" : " (codify cannot handle it: revert or ignore)";
  const lines = [`- ${codeSpan(objectLabel(ref))} · ${resource.status}${why}`];
  for (const action of objectActions(resource, codifiable))
    lines.push(boxLine({ id: boxId({ target, action, ref }), action, label: objectBoxLabel(action), depth: 1 }));
  for (const path of fieldPaths(resource)) {
    lines.push(`  - ${codeSpan(path)}`);
    for (const action of fieldActions(resource, codifiable))
      lines.push(boxLine({ id: boxId({ target, action, ref, path }), action, label: LABELS[action], depth: 2 }));
  }
  return lines.join("\n");
}

function objectBoxLabel(action: DashboardAction): string {
  return action === "codify" || action === "revert" ? `${LABELS[action]} the whole object` : LABELS[action];
}

function snoozeLines(snoozes: ShownSnooze[]): string[] {
  if (snoozes.length === 0) return [];
  return [
    "",
    "### Snoozed",
    "",
    "Not reported, healed or notified until the time given:",
    "",
    ...snoozes.map((s) => `- ${codeSpan(objectLabel(s.ref))} until ${s.until}, asked by @${s.by}`),
  ];
}

function logLines(log: string[]): string[] {
  return ["", "### What the dashboard did", "", LOG_MARKER, ...log.map((l) => `- ${l}`)];
}

function drifting(report: DriftReport): ResourceReport[] {
  return report.resources.filter((r) => r.status !== "in-sync");
}

function objectActions(resource: ResourceReport, codifiable: DashboardParams["codifiable"]): DashboardAction[] {
  return OBJECT_ACTIONS.filter((a) => a !== "codify" || codifiable(resource));
}

function fieldActions(resource: ResourceReport, codifiable: DashboardParams["codifiable"]): DashboardAction[] {
  return FIELD_ACTIONS.filter((a) => a !== "codify" || codifiable(resource));
}

/** Fields get boxes only when the object is drifted: a missing or orphaned object is acted on whole. */
function fieldPaths(resource: ResourceReport): string[] {
  return resource.status === "drifted" ? [...new Set(resource.changes.map((c) => c.path))] : [];
}

function refOf(r: ResourceReport): ObjectRef {
  return { apiVersion: r.apiVersion, kind: r.kind, name: r.name, ...(r.namespace ? { namespace: r.namespace } : {}) };
}
