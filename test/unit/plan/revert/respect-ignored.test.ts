import { describe, expect, it } from "vitest";
import { loadJq } from "../../../../src/drift/jq.ts";
import type { KubeObject, ManagedFieldsEntry } from "../../../../src/model/types.ts";
import { respectIgnored } from "../../../../src/plan/revert/respect-ignored.ts";

const deployment = (replicas: number, image: string, managedFields: ManagedFieldsEntry[] = []): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "web", namespace: "shop", managedFields },
  spec: { replicas, template: { spec: { containers: [{ name: "web", image }] } } },
});
const entry = (manager: string, operation: "Apply" | "Update", fieldsV1: ManagedFieldsEntry["fieldsV1"]) => ({
  manager,
  operation,
  apiVersion: "apps/v1",
  fieldsType: "FieldsV1",
  fieldsV1,
});
const replicasField = { "f:spec": { "f:replicas": {} } };
const rules = [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }];

describe("an apply that respects ignoreDifferences", () => {
  it("leaves an exempt field undrift does not own out of the body", async () => {
    const live = deployment(3, "nginx:1.28", [entry("kube-controller-manager", "Update", replicasField)]);
    const out = respectIgnored({
      desired: deployment(1, "nginx:1.27"),
      live,
      managedFields: live.metadata.managedFields,
      fieldManager: "undrift",
      rules,
      jq: await loadJq(),
    });
    expect(out.object.spec).toEqual({ template: { spec: { containers: [{ name: "web", image: "nginx:1.27" }] } } });
    expect(out.kept).toEqual(["/spec/replicas"]);
  });

  it("sends the live value of an exempt field undrift owns, so the apply does not remove it", async () => {
    const live = deployment(3, "nginx:1.28");
    const out = respectIgnored({
      desired: deployment(1, "nginx:1.27"),
      live,
      managedFields: [entry("undrift", "Apply", replicasField)],
      fieldManager: "undrift",
      rules,
      jq: await loadJq(),
    });
    expect((out.object.spec as { replicas: number }).replicas).toBe(3);
    expect(out.kept).toEqual(["/spec/replicas"]);
  });

  it("changes nothing without a rule for the object, and notes nothing where Git and live agree", async () => {
    const desired = deployment(3, "nginx:1.27");
    const jq = await loadJq();
    const none = respectIgnored({
      desired,
      live: deployment(3, "x"),
      managedFields: [],
      fieldManager: "undrift",
      rules: [],
      jq,
    });
    expect(none).toEqual({ object: desired, kept: [] });
    const same = respectIgnored({
      desired,
      live: deployment(3, "x"),
      managedFields: [],
      fieldManager: "undrift",
      rules,
      jq,
    });
    expect(same.kept).toEqual([]);
  });

  it("keeps live the fields the object's Argo CD annotation names, unless the target does not respect them", async () => {
    const annotated = (object: KubeObject) => {
      object.metadata.annotations = { "argocd.argoproj.io/ignore-differences-json-pointers": "/spec/replicas" };
      return object;
    };
    const live = annotated(deployment(3, "nginx:1.28", [entry("kube-controller-manager", "Update", replicasField)]));
    const desired = annotated(deployment(1, "nginx:1.27"));
    const params = { desired, live, managedFields: live.metadata.managedFields, fieldManager: "undrift" };
    const jq = await loadJq();
    const respected = respectIgnored({ ...params, rules: [], jq });
    expect(respected.object.spec).not.toHaveProperty("replicas");
    expect(respected.kept).toEqual(["/spec/replicas"]);
    // respectIgnoreDifferences: false: the apply writes all of Git.
    expect(respectIgnored({ ...params, rules: undefined, jq })).toEqual({ object: desired, kept: [] });
  });
});
