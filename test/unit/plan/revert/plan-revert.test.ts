import { describe, expect, it } from "vitest";
import type { Pairing } from "../../../../src/drift/build-report.ts";
import type { DesiredObject, KubeObject } from "../../../../src/model/types.ts";
import { planRevert } from "../../../../src/plan/revert/plan-revert.ts";

const source = { file: "manifests/all.yaml", document: 0 };
const d = (apiVersion: string, kind: string, name: string, namespace?: string): DesiredObject => ({
  object: { apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } },
  source,
});
const comparison = (paths: string[]) => ({
  changes: paths.map((path) => ({ path })),
  needsDryRun: false,
  needsDefaults: false,
  live: {} as KubeObject,
  wouldBe: {} as KubeObject,
});

describe("planning a revert", () => {
  it("orders CRDs, then Namespaces, then cluster-scoped, then namespaced objects, keeping render order within each", () => {
    const desired = [
      d("v1", "ConfigMap", "a", "shop"),
      d("example.com/v1", "Widget", "w", "shop"),
      d("rbac.authorization.k8s.io/v1", "ClusterRole", "reader"),
      d("v1", "Namespace", "shop"),
      d("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com"),
      d("v1", "ConfigMap", "b", "shop"),
    ];
    const plan = planRevert({ desired, pairings: desired.map((x) => ({ desired: x })) });
    expect(plan.objects.map((o) => `${o.stage} ${o.desired.object.kind}/${o.desired.object.metadata.name}`)).toEqual([
      "0 CustomResourceDefinition/widgets.example.com",
      "1 Namespace/shop",
      "2 ClusterRole/reader",
      "3 ConfigMap/a",
      "3 Widget/w",
      "3 ConfigMap/b",
    ]);
  });

  it("configures drifted objects, creates missing ones, leaves in-sync ones, sends orphans to prune", () => {
    const [drifted, missing, inSync, unread] = [
      d("v1", "ConfigMap", "drifted", "shop"),
      d("v1", "ConfigMap", "missing", "shop"),
      d("v1", "ConfigMap", "in-sync", "shop"),
      d("v1", "ConfigMap", "unread", "shop"),
    ];
    const live = (name: string): KubeObject => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: "shop" },
    });
    const pairings: Pairing[] = [
      { desired: drifted!, live: live("drifted"), comparison: comparison(["/data/KEY"]) },
      { desired: missing! },
      { desired: inSync!, live: live("in-sync"), comparison: comparison([]) },
      { live: live("orphan") },
    ];
    const plan = planRevert({ desired: [drifted!, missing!, inSync!, unread!], pairings });
    expect(plan.objects.map((o) => [o.desired.object.metadata.name, o.status, o.changes])).toEqual([
      ["drifted", "drifted", ["/data/KEY"]],
      ["missing", "missing", []],
      ["in-sync", "in-sync", []],
      ["unread", "not-compared", []],
    ]);
    expect(plan.orphans.map((o) => o.metadata.name)).toEqual(["orphan"]);
  });
});
