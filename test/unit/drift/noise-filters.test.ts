import { describe, expect, it } from "vitest";
import { enabledNoiseFilters, noiseFilters } from "../../../src/drift/noise-filters.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import { compare, configMapInSync, fixtureCase } from "./drift-fixtures.ts";

describe("built-in noise", () => {
  it("kubectl rollout restart's restartedAt is not drift", async () => {
    const comparison = await compare(fixtureCase("deployment-restarted"));
    expect(comparison.changes).toEqual([]);
    expect(comparison.needsDryRun).toBe(false);
  });

  it("restartedAt is drift, credited to kubectl-rollout, when the target switches the filter off", async () => {
    const { changes } = await compare(fixtureCase("deployment-restarted"), {
      noiseFilters: { "kubectl-restarted-at": false },
    });
    expect(changes).toEqual([
      {
        path: "/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt",
        live: "2026-11-30T10:15:00Z",
        manager: "kubectl-rollout",
        changedAt: "2026-11-30T10:15:00Z",
      },
    ]);
  });

  it("client-side apply's last-applied-configuration is not drift unless switched on", async () => {
    const pair = configMapInSync();
    const annotation = "kubectl.kubernetes.io/last-applied-configuration";
    const live: KubeObject = pair.live;
    live.metadata.annotations = {
      ...live.metadata.annotations,
      [annotation]: '{"apiVersion":"v1","kind":"ConfigMap"}',
    };
    live.metadata.managedFields!.push({
      manager: "kubectl-client-side-apply",
      operation: "Update",
      apiVersion: "v1",
      time: "2026-11-30T10:55:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:metadata": { "f:annotations": { [`f:${annotation}`]: {} } } },
    });

    expect((await compare(pair)).changes).toEqual([]);
    const off = await compare(pair, { noiseFilters: { "last-applied-configuration": false } });
    expect(off.changes.map((c) => [c.path, c.manager])).toEqual([
      ["/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration", "kubectl-client-side-apply"],
    ]);
  });

  it("lists every filter by name and says why, all on unless switched off", () => {
    expect(noiseFilters.map((f) => f.name)).toEqual([
      "kubectl-restarted-at",
      "deployment-revision",
      "last-applied-configuration",
      "change-cause",
      "namespace-name-label",
    ]);
    for (const filter of noiseFilters) expect(filter.why).not.toBe("");
    expect(enabledNoiseFilters(undefined)).toEqual(noiseFilters);
    expect(enabledNoiseFilters({ "deployment-revision": true, "change-cause": false }).map((f) => f.name)).toEqual([
      "kubectl-restarted-at",
      "deployment-revision",
      "last-applied-configuration",
      "namespace-name-label",
    ]);
  });

  it("the kubernetes.io/metadata.name label the API server puts on a Namespace is not drift unless switched off", async () => {
    const pair = adoptedNamespace();
    expect((await compare(pair)).changes).toEqual([]);
    const off = await compare(pair, { noiseFilters: { "namespace-name-label": false } });
    expect(off.changes.map((c) => [c.path, c.live, c.manager])).toEqual([
      ["/metadata/labels/kubernetes.io~1metadata.name", "shop", "kubectl-create"],
    ]);
  });

  it("the same label added by hand to another kind is still drift", async () => {
    const pair = configMapInSync();
    pair.live.metadata.labels = { ...pair.live.metadata.labels, [nameLabel]: "app-config" };
    pair.live.metadata.managedFields!.push(labelledBy("kubectl-label"));
    expect((await compare(pair)).changes.map((c) => [c.path, c.manager])).toEqual([
      ["/metadata/labels/kubernetes.io~1metadata.name", "kubectl-label"],
    ]);
  });
});

const nameLabel = "kubernetes.io/metadata.name";

function labelledBy(manager: string) {
  return {
    manager,
    operation: "Update" as const,
    apiVersion: "v1",
    time: "2026-11-30T10:55:00Z",
    fieldsType: "FieldsV1",
    fieldsV1: { "f:metadata": { "f:labels": { ".": {}, [`f:${nameLabel}`]: {} } } },
  };
}

/** A Namespace made with `kubectl create ns`, then declared in Git and labelled for the target. */
function adoptedNamespace() {
  const labels = { "undrift.dev/target": "shop" };
  const desired: KubeObject = { apiVersion: "v1", kind: "Namespace", metadata: { name: "shop", labels } };
  const live: KubeObject = {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name: "shop",
      uid: "0b6f3c2e",
      resourceVersion: "42",
      labels: { [nameLabel]: "shop", ...labels },
      managedFields: [
        labelledBy("kubectl-create"),
        {
          manager: "undrift",
          operation: "Apply",
          apiVersion: "v1",
          time: "2026-11-30T11:00:00Z",
          fieldsType: "FieldsV1",
          fieldsV1: { "f:metadata": { "f:labels": { "f:undrift.dev/target": {} } } },
        },
      ],
    },
    spec: { finalizers: ["kubernetes"] },
    status: { phase: "Active" },
  };
  return { desired, live };
}
