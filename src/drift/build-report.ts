// Pairs desired and live objects, classifies each (in-sync, drifted, missing,
// orphaned), masks Secret values and fingerprints the drift: the engine's exit.

import type {
  DesiredObject,
  DriftReport,
  KubeObject,
  ReconcilerRef,
  ResourceReport,
  ResourceStatus,
  ScanProblem,
} from "../model/types.ts";
import { cleanObject } from "./clean-object.ts";
import type { ObjectComparison } from "./compare-object.ts";
import { maskResource, maskSensitiveFields } from "./mask.ts";
import { summarize } from "./summarize.ts";

export interface Pairing {
  desired?: DesiredObject;
  live?: KubeObject;
  /** The comparison of desired and live, when both exist. */
  comparison?: ObjectComparison;
  /** Why the server's dry-run refused the desired object as invalid (applying it would fail so), Secret values redacted. */
  refused?: string;
  /**
   * The reconciler's annotation that says to leave the object alone (model/reconciler-annotations.ts): it is
   * in sync whatever its fields, and not even missing; nothing re-applies, codifies or prunes it.
   */
  leftAlone?: string;
}

/** What the scan finds of a pairing: the one classification the report, codify and revert all read. */
export function findingOf(p: Pairing): ResourceStatus {
  if (p.leftAlone !== undefined) return "in-sync";
  // A desired object with a live one always has its comparison (pairObjects makes them together).
  if (p.desired && p.comparison) return p.comparison.changes.length > 0 ? "drifted" : "in-sync";
  return p.desired ? "missing" : "orphaned";
}

function resourceOf(p: Pairing): ResourceReport {
  const object = (p.desired?.object ?? p.live)!;
  const base = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
    ...(p.desired ? { source: p.desired.source } : {}),
  };
  const status = findingOf(p);
  if (status === "drifted") {
    const { changes, live, wouldBe } = p.comparison!;
    return { ...base, status, changes, live, wouldBe };
  }
  if (status === "in-sync") return { ...base, status, changes: [], ...(p.leftAlone ? { leftAlone: p.leftAlone } : {}) };
  if (status === "missing") return { ...base, status, changes: [], wouldBe: cleanObject(p.desired!.object) };
  return { ...base, status, changes: [], live: cleanObject(p.live!) };
}

export function buildReport(params: {
  target: string;
  revision: string;
  pairings: Pairing[];
  problems: ScanProblem[];
  reconciler?: ReconcilerRef | undefined;
}): DriftReport {
  const resources = params.pairings.map((p) => maskSensitiveFields(maskResource(resourceOf(p)), p.desired?.sensitive));
  return {
    target: params.target,
    revision: params.revision,
    ...(params.reconciler ? { reconciler: params.reconciler } : {}),
    ...summarize(resources),
    resources,
    problems: params.problems,
  };
}
