// One created or changed object's collapsible block in the preview comment:
// the drift report's block (diff of live against what the apply would leave,
// then the changed fields), labelled with the preview's action and carrying
// the object's note. markdownDetails does the sizing, note included, so an
// oversized object is cut inside its block and the fence and </details> survive.

import { type PreviewResource, previewFinding } from "../../model/preview-report.ts";
import type { ResourceReport } from "../../model/types.ts";
import { markdownDetails } from "../markdown-details.ts";
import { escapeText } from "../markdown-escape.ts";

const NOTE_MAX = 500;

/** `<details>` for one created or changed object, at most `budget` characters. */
export function previewDetails(resource: PreviewResource, budget: number): string {
  // A create is the drift report's "missing" (no live side, the diff is all added); a change is "drifted".
  const status = previewFinding(resource.action);
  const notes = [
    ...(resource.fails ? [`**would fail:** ${escapeText(resource.fails, NOTE_MAX)}`] : []),
    ...(resource.note ? [`*${escapeText(resource.note, NOTE_MAX)}*`] : []),
  ];
  const note = notes.length > 0 ? notes.join("\n\n") : undefined;
  return markdownDetails(asResourceReport(resource, status), budget, {
    label: resource.fails ? `${resource.action}, would fail` : resource.action,
    ...(note ? { note } : {}),
  });
}

function asResourceReport(resource: PreviewResource, status: ResourceReport["status"]): ResourceReport {
  const out: ResourceReport = {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    namespace: resource.namespace,
    name: resource.name,
    status,
    source: resource.source,
    changes: resource.changes,
  };
  if (resource.live) out.live = resource.live;
  if (resource.wouldBe) out.wouldBe = resource.wouldBe;
  return out;
}
