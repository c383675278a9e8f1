import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../src/model/types.ts";
import { changedNothingJudged, judgedChange } from "../../../../src/plan/revert/changed-nothing-judged.ts";

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

const desired: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop" },
  spec: { replicas: 2 },
};
const by = { desired, fieldManager: "undrift", isHuman: (manager: string) => manager.startsWith("kubectl") };
const onlyUnjudged = (before: KubeObject, after: KubeObject) => changedNothingJudged(before, after, by);

/**
 * The read again, with `manager` having written the revision annotation. The Deployment controller writes it
 * through the status subresource, so its status entry owns it; `subresource: undefined` is a plain update.
 */
const revisionBy = (manager: string, base = read, subresource: string | undefined = "status") => {
  const copy = structuredClone(base);
  copy.metadata.resourceVersion = "101";
  copy.metadata.annotations = { ...copy.metadata.annotations, "deployment.kubernetes.io/revision": "2" };
  copy.metadata.managedFields!.push({
    manager,
    operation: "Update",
    time: "2026-12-03T10:02:00Z",
    fieldsV1: { "f:metadata": { "f:annotations": { "f:deployment.kubernetes.io/revision": {} } } },
    ...(subresource ? { subresource } : {}),
  });
  return copy;
};

describe("changedNothingJudged", () => {
  it("is true when the status and its managedFields entry moved", () => {
    const fresh = readAgain((o) => {
      o.status = { replicas: 2, readyReplicas: 2 };
      o.metadata.managedFields![2]!.time = "2026-12-03T10:02:00Z";
    });
    expect(onlyUnjudged(read, fresh)).toBe(true);
  });

  it("is false when a person rewrote a value they already owned in the same second", () => {
    expect(
      onlyUnjudged(
        read,
        readAgain((o) => (o.metadata.annotations = { oncall: "bob" })),
      ),
    ).toBe(false);
  });

  it("is false when the spec or a controller's metadata changed", () => {
    expect(
      onlyUnjudged(
        read,
        readAgain((o) => ((o.spec as { replicas: number }).replicas = 5)),
      ),
    ).toBe(false);
    const annotated = readAgain(
      (o) => (o.metadata.annotations = { ...o.metadata.annotations, "deployment.kubernetes.io/revision": "2" }),
    );
    // Written, but by no manager that the read knew of: nothing says a controller wrote it.
    expect(onlyUnjudged(read, annotated)).toBe(false);
  });

  it("is true when a controller wrote an annotation that only it owns and Git does not declare", () => {
    expect(onlyUnjudged(read, revisionBy("kube-controller-manager"))).toBe(true);
    expect(onlyUnjudged(read, revisionBy("cert-manager", read, undefined))).toBe(true);
    // And again: the entry's time moves with each of the controller's writes.
    const first = revisionBy("kube-controller-manager");
    const again = structuredClone(first);
    again.metadata.annotations!["deployment.kubernetes.io/revision"] = "3";
    again.metadata.managedFields!.at(-1)!.time = "2026-12-03T10:03:00Z";
    expect(onlyUnjudged(first, again)).toBe(true);
  });

  it("is false when that annotation was a person's, or Git declares it, or a person owns it too", () => {
    expect(onlyUnjudged(read, revisionBy("kubectl-annotate"))).toBe(false);
    const declaring = {
      ...by,
      desired: {
        ...desired,
        metadata: { ...desired.metadata, annotations: { "deployment.kubernetes.io/revision": "1" } },
      },
    };
    expect(changedNothingJudged(read, revisionBy("kube-controller-manager"), declaring)).toBe(false);
    const shared = structuredClone(read);
    shared.metadata.annotations = { ...shared.metadata.annotations, "deployment.kubernetes.io/revision": "1" };
    shared.metadata.managedFields![1]!.fieldsV1 = {
      "f:metadata": { "f:annotations": { "f:deployment.kubernetes.io/revision": {} } },
    };
    expect(onlyUnjudged(shared, revisionBy("kube-controller-manager", shared))).toBe(false);
  });

  it("is true when the scan read the object before its controller first wrote an annotation", () => {
    // applyGit then `kubectl set image` at once: the scan can read the Deployment before the controller's first
    // sync, when it has no annotations at all, and the revert's second read finds the revision annotation there.
    // No annotations and only exempt annotations are the same to the revert (once, in a full CI run, refused).
    const unannotated = structuredClone(read);
    delete unannotated.metadata.annotations;
    expect(judgedChange(unannotated, revisionBy("kube-controller-manager", unannotated), by)).toBeUndefined();
    const labelled = structuredClone(unannotated);
    delete labelled.metadata.labels;
    const controllerLabel = structuredClone(labelled);
    controllerLabel.metadata.resourceVersion = "101";
    controllerLabel.metadata.labels = { "pod-template-hash": "abc" };
    controllerLabel.metadata.managedFields!.push({
      manager: "some-controller",
      operation: "Update",
      time: "2026-12-03T10:02:00Z",
      fieldsV1: { "f:metadata": { "f:labels": { "f:pod-template-hash": {} } } },
    });
    expect(judgedChange(labelled, controllerLabel, by)).toBeUndefined();
    // A person's first annotation is still a change.
    expect(judgedChange(unannotated, revisionBy("kubectl-annotate", unannotated), by)).toBe("/metadata/annotations");
  });

  it("is true when the API server listed the same entries in another order", () => {
    const reordered = readAgain((o) => o.metadata.managedFields!.reverse());
    expect(onlyUnjudged(read, reordered)).toBe(true);
  });

  it("is false when a controller that wrote its annotation wrote the spec too", () => {
    const both = revisionBy("kube-controller-manager", read, undefined);
    (both.spec as { replicas: number }).replicas = 5;
    both.metadata.managedFields!.at(-1)!.fieldsV1!["f:spec"] = { "f:replicas": {} };
    expect(onlyUnjudged(read, both)).toBe(false);
  });
});

describe("judgedChange", () => {
  it("names where a judged field moved, so that a refused revert says what changed", () => {
    expect(
      judgedChange(
        read,
        readAgain((o) => (o.metadata.annotations = { oncall: "bob" })),
        by,
      ),
    ).toBe("/metadata/annotations/oncall");
    expect(
      judgedChange(
        read,
        readAgain((o) => ((o.spec as { replicas: number }).replicas = 5)),
        by,
      ),
    ).toBe("/spec/replicas");
    const rewritten = readAgain((o) => (o.metadata.managedFields![1]!.time = "2026-12-03T10:05:00Z"));
    expect(judgedChange(read, rewritten, by)).toBe("/metadata/managedFields (kubectl-annotate)");
  });

  it("is undefined when only what the revert never judged moved", () => {
    expect(judgedChange(read, revisionBy("kube-controller-manager"), by)).toBeUndefined();
  });
});
