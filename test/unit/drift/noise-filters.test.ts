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
    ]);
    for (const filter of noiseFilters) expect(filter.why).not.toBe("");
    expect(enabledNoiseFilters(undefined)).toEqual(noiseFilters);
    expect(enabledNoiseFilters({ "deployment-revision": true, "change-cause": false }).map((f) => f.name)).toEqual([
      "kubectl-restarted-at",
      "deployment-revision",
      "last-applied-configuration",
    ]);
  });
});
