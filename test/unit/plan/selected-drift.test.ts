// A scan cut to the ticked items: a whole object keeps all its changes, a
// field keeps only that field (in the report and in the pairing codify reads),
// other drift is left out, in-sync objects stay; and snoozed objects leave the
// scan entirely.
import { describe, expect, it } from "vitest";
import type { TargetConfig } from "../../../src/config/schema.ts";
import type { Pairing } from "../../../src/drift/build-report.ts";
import type { KubeObject, ResourceReport } from "../../../src/model/types.ts";
import type { ShareableScan } from "../../../src/plan/mode-shares.ts";
import { selectDrift, withoutObjects } from "../../../src/plan/selected-drift.ts";

const object = (kind: string, name: string): KubeObject => ({
  apiVersion: kind === "Deployment" ? "apps/v1" : "v1",
  kind,
  metadata: { name, namespace: "shop" },
});
const change = (path: string) => ({ path, desired: 1, live: 2 });

function scan(): ShareableScan {
  const web = object("Deployment", "web");
  const cm = object("ConfigMap", "app");
  const ok = object("ConfigMap", "ok");
  const resource = (o: KubeObject, status: ResourceReport["status"], paths: string[]): ResourceReport => ({
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: "shop",
    name: o.metadata.name,
    status,
    changes: paths.map(change),
  });
  const pairing = (o: KubeObject, paths: string[]): Pairing =>
    ({
      desired: { object: o, source: { file: "x.yaml", document: 0 } },
      live: o,
      comparison: { changes: paths.map(change) },
    }) as unknown as Pairing;
  const resources = [
    resource(web, "drifted", ["/spec/replicas", "/spec/template/spec/containers/0/image"]),
    resource(cm, "drifted", ["/data/A"]),
    resource(ok, "in-sync", []),
  ];
  return {
    target: { name: "infra" } as TargetConfig,
    report: {
      target: "infra",
      revision: "r",
      summary: { inSync: 1, drifted: 2, missing: 0, orphaned: 0 },
      resources,
      problems: [],
      fingerprint: "f",
    },
    pairings: [
      pairing(web, ["/spec/replicas", "/spec/template/spec/containers/0/image"]),
      pairing(cm, ["/data/A"]),
      pairing(ok, []),
    ],
  };
}

const webRef = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };

describe("selectDrift", () => {
  it("keeps only the ticked field of a drifted object, in the report and in the pairing", () => {
    const cut = selectDrift(scan(), [{ ref: webRef, path: "/spec/replicas" }]);
    expect(cut.report.resources.map((r) => [r.name, r.changes.map((c) => c.path)])).toEqual([
      ["web", ["/spec/replicas"]],
      ["ok", []],
    ]);
    expect(cut.pairings.map((p) => p.comparison?.changes.map((c) => c.path))).toEqual([["/spec/replicas"], []]);
    expect(cut.report.summary).toEqual({ inSync: 1, drifted: 1, missing: 0, orphaned: 0 });
    expect(cut.report.fingerprint).not.toBe(scan().report.fingerprint);
  });

  it("keeps every change of an object ticked whole, even beside one of its fields", () => {
    const cut = selectDrift(scan(), [{ ref: webRef, path: "/spec/replicas" }, { ref: webRef }]);
    expect(cut.report.resources[0]?.changes).toHaveLength(2);
  });
});

describe("withoutObjects", () => {
  it("leaves a snoozed object out of the report and the pairings", () => {
    const cut = withoutObjects(scan(), [webRef]);
    expect(cut.report.resources.map((r) => r.name)).toEqual(["app", "ok"]);
    expect(cut.pairings).toHaveLength(2);
    expect(cut.report.summary.drifted).toBe(1);
  });
});
