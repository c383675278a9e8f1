// The counts and fingerprint of a list of resource reports: what a whole scan's
// report carries, and what a share of it (one mode's objects) carries too.

import type { DriftReport, ResourceReport } from "../model/types.ts";
import { fingerprint } from "./fingerprint.ts";

export function summarize(resources: ResourceReport[]): Pick<DriftReport, "summary" | "fingerprint"> {
  const count = (status: ResourceReport["status"]) => resources.filter((r) => r.status === status).length;
  return {
    summary: {
      inSync: count("in-sync"),
      drifted: count("drifted"),
      missing: count("missing"),
      orphaned: count("orphaned"),
    },
    fingerprint: fingerprint(resources),
  };
}
