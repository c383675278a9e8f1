import { describe, expect, it } from "vitest";
import { renderJson } from "../../../src/report/render-json.ts";
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
    expect(json.stats).toEqual({ objects: 8, requests: 12, durationMs: 340, dryRuns: 3 });
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

  it("never includes the live or would-be objects", () => {
    for (const resource of json.resources) {
      expect(resource).not.toHaveProperty("live");
      expect(resource).not.toHaveProperty("wouldBe");
    }
    expect(text).not.toContain("ghcr.io/acme/web");
    expect(text).not.toContain("REGION");
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
});
