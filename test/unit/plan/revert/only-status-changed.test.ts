import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../src/model/types.ts";
import { onlyStatusChanged } from "../../../../src/plan/revert/only-status-changed.ts";

const read: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: {
    name: "web",
    namespace: "shop",
    resourceVersion: "100",
    generation: 2,
    annotations: { oncall: "alice" },
    managedFields: [
      { manager: "undrift", operation: "Apply", time: "2026-12-03T10:00:00Z", fieldsV1: { "f:spec": {} } },
      { manager: "kubectl-annotate", operation: "Update", time: "2026-12-03T10:01:00Z", fieldsV1: {} },
      {
        manager: "kube-controller-manager",
        operation: "Update",
        subresource: "status",
        time: "2026-12-03T10:01:00Z",
        fieldsV1: { "f:status": {} },
      },
    ],
  },
  spec: { replicas: 2 },
  status: { replicas: 1 },
};

const readAgain = (change: (o: KubeObject) => void): KubeObject => {
  const copy = structuredClone(read);
  copy.metadata.resourceVersion = "101";
  change(copy);
  return copy;
};

describe("onlyStatusChanged", () => {
  it("is true when the status and its managedFields entry moved", () => {
    const fresh = readAgain((o) => {
      o.status = { replicas: 2, readyReplicas: 2 };
      o.metadata.managedFields![2]!.time = "2026-12-03T10:02:00Z";
    });
    expect(onlyStatusChanged(read, fresh)).toBe(true);
  });

  it("is false when a person rewrote a value they already owned in the same second", () => {
    expect(
      onlyStatusChanged(
        read,
        readAgain((o) => (o.metadata.annotations = { oncall: "bob" })),
      ),
    ).toBe(false);
  });

  it("is false when the spec or a controller's metadata changed", () => {
    expect(
      onlyStatusChanged(
        read,
        readAgain((o) => ((o.spec as { replicas: number }).replicas = 5)),
      ),
    ).toBe(false);
    const annotated = readAgain(
      (o) => (o.metadata.annotations = { ...o.metadata.annotations, "deployment.kubernetes.io/revision": "2" }),
    );
    expect(onlyStatusChanged(read, annotated)).toBe(false);
  });
});
