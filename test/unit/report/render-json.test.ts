import { describe, expect, it } from "vitest";
import { buildReport } from "../../../src/drift/build-report.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import { renderJson } from "../../../src/report/render-json.ts";
import { renderText } from "../../../src/report/render-text.ts";
import { inSyncReport, sampleReport } from "./sample-report.ts";

describe("renderJson", () => {
  const text = renderJson(sampleReport());
  const json = JSON.parse(text);

  it("is pretty-printed with two spaces and ends with a newline", () => {
    expect(text.startsWith('{\n  "target": "infra",\n')).toBe(true);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("has the documented top-level keys, in order", () => {
    expect(Object.keys(json)).toEqual([
      "target",
      "revision",
      "summary",
      "resources",
      "fingerprint",
      "problems",
      "stats",
    ]);
    expect(json.summary).toEqual({ inSync: 3, drifted: 3, missing: 1, orphaned: 1 });
    expect(json.stats).toEqual({ objects: 8, requests: 12, durationMs: 340, dryRuns: 3, desired: 7 });
  });

  it("describes each resource with exactly the documented fields", () => {
    expect(json.resources[1]).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "infra",
      name: "app-config",
      status: "drifted",
      source: { file: "infra/config.yaml", document: 0 },
      changes: [
        {
          path: "/data/LOG_LEVEL",
          desired: "info",
          live: "debug",
          manager: "kubectl-patch",
          changedAt: "2026-11-30T10:00:00Z",
        },
      ],
    });
    expect(Object.keys(json.resources[0])).toEqual([
      "apiVersion",
      "kind",
      "namespace",
      "name",
      "status",
      "source",
      "changes",
    ]);
  });

  it("leaves out the namespace of a cluster-scoped object and the source of an orphan", () => {
    expect(Object.keys(json.resources[4])).toEqual(["apiVersion", "kind", "name", "status", "changes"]);
  });

  it("leaves out a change's unknown manager and time", () => {
    expect(Object.keys(json.resources[0].changes[1])).toEqual(["path", "desired", "live", "manager"]);
  });

  it("gives a missing object the body applying Git would create, and no other object a body", () => {
    const missing = json.resources.find((r: { status: string }) => r.status === "missing");
    expect(missing.wouldBe).toEqual({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "shop" },
      spec: { ports: [{ port: 80 }] },
    });
    expect(Object.keys(missing)).toEqual([
      "apiVersion",
      "kind",
      "namespace",
      "name",
      "status",
      "source",
      "changes",
      "wouldBe",
    ]);
    for (const resource of json.resources.filter((r: { status: string }) => r.status !== "missing")) {
      expect(resource).not.toHaveProperty("live");
      expect(resource).not.toHaveProperty("wouldBe");
    }
    expect(text).not.toContain("ghcr.io/acme/web");
    expect(text).not.toContain("REGION");
  });

  it("says who deleted a missing object as deletedBy, in the actor's shape, and only where it is known", () => {
    const report = sampleReport();
    report.resources.find((r) => r.kind === "Service")!.deletedBy = {
      username: "bob",
      groups: ["dev"],
      sourceIP: "10.1.2.4",
      at: "2026-11-30T09:59:01.000Z",
      confidence: "exact",
    };
    const out = JSON.parse(renderJson(report));
    const service = out.resources.find((r: { kind: string }) => r.kind === "Service");
    expect(service.deletedBy).toEqual({
      username: "bob",
      groups: ["dev"],
      sourceIP: "10.1.2.4",
      at: "2026-11-30T09:59:01.000Z",
      confidence: "exact",
    });
    expect(json.resources.some((r: { deletedBy?: unknown }) => "deletedBy" in r)).toBe(false);
  });

  it("shows a Secret's change only as the masks it was given", () => {
    expect(json.resources[2].changes).toEqual([
      { path: "/data/password", desired: "*** (after)", live: "*** (before)", manager: "kubectl-edit" },
    ]);
  });

  it("lists problems and omits stats when there are none", () => {
    expect(json.problems).toEqual([
      {
        kind: "Certificate",
        group: "cert-manager.io",
        namespace: "infra",
        name: "web-tls",
        message: "forbidden: cannot list",
      },
    ]);
    const inSync = JSON.parse(renderJson(inSyncReport()));
    expect(Object.keys(inSync)).toEqual(["target", "revision", "summary", "resources", "fingerprint", "problems"]);
  });

  it("shows a missing Secret's body with every value masked as the text masks it, never a value, plain or base64", () => {
    const values = ["git-password-4711", "api-token-0815", "applied-by-hand-42"];
    const base64 = (text: string) => Buffer.from(text).toString("base64");
    const secret: KubeObject = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: {
        name: "db",
        namespace: "shop",
        annotations: { "kubectl.kubernetes.io/last-applied-configuration": `{"stringData":{"x":"${values[2]}"}}` },
      },
      type: "Opaque",
      data: { password: base64(values[0]!) },
      stringData: { token: values[1]! },
    };
    const report = buildReport({
      target: "shop",
      revision: "0c5f3e1",
      pairings: [{ desired: { object: secret, source: { file: "shop/secret.yaml", document: 0 } } }],
      problems: [],
    });
    const out = renderJson(report);
    const text = renderText(report, { color: false });
    for (const value of values.flatMap((v) => [v, base64(v)])) {
      expect(out).not.toContain(value);
      expect(text).not.toContain(value);
    }
    const { wouldBe } = JSON.parse(out).resources[0];
    expect(wouldBe.data).toEqual({ password: "***" });
    expect(wouldBe.stringData).toEqual({ token: "***" });
    expect(wouldBe.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).toBe("***");
    expect(text).toContain(`+  password: "***"`);
    expect(text).toContain(`+  token: "***"`);
  });
});
