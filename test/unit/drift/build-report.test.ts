import { describe, expect, it } from "vitest";
import { buildReport, type Pairing } from "../../../src/drift/build-report.ts";
import type { KubeObject, ScanProblem } from "../../../src/model/types.ts";
import { type Case, compare, fixture, fixtureCase } from "./drift-fixtures.ts";

async function compared(pair: Case, file: string): Promise<Pairing> {
  return {
    desired: { object: pair.desired, source: { file, document: 0 } },
    live: pair.live,
    comparison: await compare(pair),
  };
}

async function scan(problems: ScanProblem[] = []) {
  const orphan = fixture("configmap-dropped-key-live");
  orphan.metadata.name = "legacy-config";
  const namespace: KubeObject = {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "shop", labels: { "undrift.dev/target": "shop" } },
  };
  return buildReport({
    target: "shop",
    revision: "0c5f3e1a9b7d",
    pairings: [
      await compared(fixtureCase("deployment-in-sync"), "apps/shop/web.yaml"),
      await compared(fixtureCase("configmap-dropped-key"), "apps/shop/config.yaml"),
      { desired: { object: namespace, source: { file: "apps/shop/namespace.yaml", document: 0 } } },
      { live: orphan },
    ],
    problems,
  });
}

describe("the drift report", () => {
  it("classifies each object and counts them", async () => {
    const report = await scan();
    expect(report.summary).toEqual({ inSync: 1, drifted: 1, missing: 1, orphaned: 1 });
    expect(report.resources.map((r) => [r.kind, r.name, r.status])).toEqual([
      ["Deployment", "web", "in-sync"],
      ["ConfigMap", "app-config", "drifted"],
      ["Namespace", "shop", "missing"],
      ["ConfigMap", "legacy-config", "orphaned"],
    ]);
  });

  it("carries the target, the revision and the problems of the scan", async () => {
    const problem: ScanProblem = {
      group: "monitoring.coreos.com",
      kind: "ServiceMonitor",
      message: "monitoring.coreos.com/ServiceMonitor: the cluster does not serve this kind",
    };
    const report = await scan([problem]);
    expect(report.target).toBe("shop");
    expect(report.revision).toBe("0c5f3e1a9b7d");
    expect(report.problems).toEqual([problem]);
  });

  it("says where in Git each declared object comes from", async () => {
    const { resources } = await scan();
    expect(resources.map((r) => r.source?.file)).toEqual([
      "apps/shop/web.yaml",
      "apps/shop/config.yaml",
      "apps/shop/namespace.yaml",
      undefined,
    ]);
  });

  it("an in-sync object has no changes and no objects to diff", async () => {
    const inSync = (await scan()).resources[0]!;
    expect(inSync).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      namespace: "shop",
      name: "web",
      source: { file: "apps/shop/web.yaml", document: 0 },
      status: "in-sync",
      changes: [],
    });
  });

  it("a drifted object has its changes and the live and would-be objects to diff", async () => {
    const drifted = (await scan()).resources[1]!;
    expect(drifted.changes.map((c) => c.path).sort()).toEqual(["/data/LOG_LEVEL", "/data/OLD_PAYMENTS_URL"]);
    expect(drifted.live?.data).toMatchObject({ LOG_LEVEL: "debug" });
    expect(drifted.wouldBe?.data).toMatchObject({ LOG_LEVEL: "info" });
    expect(drifted.live?.metadata.managedFields).toBeUndefined();
  });

  it("a missing object shows what applying would create; a cluster-scoped one has no namespace", async () => {
    const missing = (await scan()).resources[2]!;
    expect(missing).not.toHaveProperty("namespace");
    expect(missing.changes).toEqual([]);
    expect(missing.wouldBe?.metadata).toEqual({ name: "shop", labels: { "undrift.dev/target": "shop" } });
    expect(missing).not.toHaveProperty("live");
  });

  it("an orphaned object shows the live object, without the server's bookkeeping", async () => {
    const orphaned = (await scan()).resources[3]!;
    expect(orphaned.namespace).toBe("shop");
    expect(orphaned.live?.metadata).not.toHaveProperty("managedFields");
    expect(orphaned.live?.metadata).not.toHaveProperty("resourceVersion");
    expect(orphaned.live?.metadata).not.toHaveProperty("uid");
    expect(orphaned.live?.metadata).not.toHaveProperty("creationTimestamp");
    expect(orphaned.live?.data).toMatchObject({ LOG_LEVEL: "debug" });
    expect(orphaned).not.toHaveProperty("wouldBe");
  });

  it("an empty scan is in sync with a stable fingerprint", () => {
    const empty = () => buildReport({ target: "shop", revision: "0c5f3e1", pairings: [], problems: [] });
    expect(empty().summary).toEqual({ inSync: 0, drifted: 0, missing: 0, orphaned: 0 });
    expect(empty().fingerprint).toBe(empty().fingerprint);
  });
});
