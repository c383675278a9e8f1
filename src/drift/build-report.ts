// Pairs desired and live objects, classifies each (in-sync, drifted, missing,
// orphaned), masks Secret values and fingerprints the drift: the engine's exit.

import type { DesiredObject, DriftReport, KubeObject, ResourceReport, ScanProblem } from "../model/types.ts";
import { cleanObject } from "./clean-object.ts";
import type { ObjectComparison } from "./compare-object.ts";
import { maskResource } from "./mask.ts";
import { summarize } from "./summarize.ts";

export interface Pairing {
  desired?: DesiredObject;
  live?: KubeObject;
  /** The comparison of desired and live, when both exist. */
  comparison?: ObjectComparison;
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
  if (p.desired && p.comparison) {
    const drifted = p.comparison.changes.length > 0;
    return drifted
      ? {
          ...base,
          status: "drifted",
          changes: p.comparison.changes,
          live: p.comparison.live,
          wouldBe: p.comparison.wouldBe,
        }
      : { ...base, status: "in-sync", changes: [] };
  }
  if (p.desired) return { ...base, status: "missing", changes: [], wouldBe: cleanObject(p.desired.object) };
  return { ...base, status: "orphaned", changes: [], live: cleanObject(p.live!) };
}

export function buildReport(params: {
  target: string;
  revision: string;
  pairings: Pairing[];
  problems: ScanProblem[];
}): DriftReport {
  const resources = params.pairings.map((p) => maskResource(resourceOf(p)));
  return {
    target: params.target,
    revision: params.revision,
    ...summarize(resources),
    resources,
    problems: params.problems,
  };
}
