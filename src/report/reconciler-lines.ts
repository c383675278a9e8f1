// What a report says of the reconciler a discovered target follows: that it is
// suspended (drift is expected while an on-call engineer holds it still, and is
// still reported), and which revision it last applied beside the one the scan
// judged, so a difference that is Flux's apply still to come is not read as a
// person's change.
import type { DriftReport, ReconcilerRef } from "../model/types.ts";

const names = { flux: "Flux", argo: "Argo CD" } as const;

/** The lines, plain text; none for a configured target. */
export function reconcilerLines(report: DriftReport): string[] {
  const reconciler = report.reconciler;
  if (!reconciler) return [];
  const object = `${names[reconciler.from]} ${reconciler.kind} ${reconciler.namespace}/${reconciler.name}`;
  const lines = [`follows ${object}`];
  if (reconciler.suspended) lines.push(`${object} is suspended: drift is expected until it resumes`);
  const applied = appliedLine(reconciler, report.revision);
  if (applied) lines.push(applied);
  return lines;
}

function appliedLine(reconciler: ReconcilerRef, revision: string): string | undefined {
  const last = reconciler.lastAppliedRevision;
  if (!last) return undefined;
  // Flux writes `<branch>@sha1:<sha>` (older releases `<branch>/<sha>`).
  const sha = /([0-9a-f]{40})$/.exec(last)?.[1];
  if (sha === revision) return `${names[reconciler.from]} last applied this revision (${last})`;
  return `${names[reconciler.from]} last applied ${last}; this scan judged ${revision}: a difference may be an apply still to come`;
}
