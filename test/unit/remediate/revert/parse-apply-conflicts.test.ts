// Messages as the API server (v1.34) words a server-side apply conflict.
import { describe, expect, it } from "vitest";
import { isApplyConflict, parseApplyConflicts } from "../../../../src/remediate/revert/parse-apply-conflicts.ts";

const path = "PATCH /apis/apps/v1/namespaces/shop/deployments/web: 409 Conflict: ";

describe("reading an apply conflict", () => {
  it("reads the one conflict of a single-conflict message", () => {
    const message = `${path}Apply failed with 1 conflict: conflict with "hpa-controller" using apps/v1: .spec.replicas`;
    expect(isApplyConflict(message)).toBe(true);
    expect(parseApplyConflicts(message)).toEqual([{ field: ".spec.replicas", manager: "hpa-controller" }]);
  });

  it("reads every field of every manager, with subresources, from a multi-conflict message", () => {
    const message = `${path}Apply failed with 3 conflicts: conflicts with "kubectl" with subresource "scale" using apps/v1:
- .spec.replicas
conflicts with "kubectl-set" using apps/v1:
- .spec.template.spec.containers[name="web"].image
- .spec.template.spec.containers[name="web"].env[name="DEBUG"].value`;
    expect(parseApplyConflicts(message)).toEqual([
      { field: ".spec.replicas", manager: "kubectl", subresource: "scale" },
      { field: '.spec.template.spec.containers[name="web"].image', manager: "kubectl-set" },
      { field: '.spec.template.spec.containers[name="web"].env[name="DEBUG"].value', manager: "kubectl-set" },
    ]);
  });

  it("reads an Apply manager (no version) and an Update manager with a time", () => {
    const one = `Apply failed with 1 conflict: conflict with "argocd-controller": .data.KEY`;
    expect(parseApplyConflicts(one)).toEqual([{ field: ".data.KEY", manager: "argocd-controller" }]);
    const timed = `Apply failed with 1 conflict: conflict with "operator" using v1 at 2026-11-30T10:00:00Z: .metadata.labels.tier`;
    expect(parseApplyConflicts(timed)).toEqual([{ field: ".metadata.labels.tier", manager: "operator" }]);
  });

  it("unquotes manager names with escaped characters", () => {
    const message = `Apply failed with 1 conflict: conflict with "odd \\"name\\"" using v1: .data.x`;
    expect(parseApplyConflicts(message)).toEqual([{ field: ".data.x", manager: 'odd "name"' }]);
  });

  it("finds nothing in other 409s", () => {
    const stale = `${path}Operation cannot be fulfilled on deployments.apps "web": the object has been modified`;
    expect(isApplyConflict(stale)).toBe(false);
    expect(parseApplyConflicts(stale)).toEqual([]);
  });
});
