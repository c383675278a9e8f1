import { describe, expect, it } from "vitest";
import { previewReportSchema } from "../../../../src/report/preview/preview-json-schema.ts";
import { renderPreviewJson } from "../../../../src/report/preview/render-preview-json.ts";
import { renderJson } from "../../../../src/report/render-json.ts";
import {
  failingPreview,
  INVALID_PORT,
  renderFailedPreview,
  SECRET_VALUES,
  SECRET_VALUES_BASE64,
  samplePreview,
} from "../sample-preview.ts";

describe("renderPreviewJson", () => {
  const report = samplePreview();
  const text = renderPreviewJson(report);
  const json = JSON.parse(text);

  it("carries why an object's apply would fail, as the schema describes it", () => {
    const failing = JSON.parse(renderPreviewJson(failingPreview()));
    expect(previewReportSchema.parse(failing)).toEqual(failing);
    expect(failing.resources.find((r: { kind: string }) => r.kind === "Deployment").fails).toBe(INVALID_PORT);
    expect(json.resources.some((r: { fails?: string }) => r.fails)).toBe(false);
  });

  it("prints 2-space JSON ending with a newline, keys in a fixed order", () => {
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.split("\n")[1]).toBe('  "target": "shop",');
    expect(Object.keys(json)).toEqual([
      "target",
      "cluster",
      "base",
      "head",
      "status",
      "summary",
      "resources",
      "prune",
      "drift",
      "problems",
      "stats",
    ]);
    expect(Object.keys(json.summary)).toEqual([
      "create",
      "change",
      "unchanged",
      "prune",
      "orphan",
      "keep",
      "refused",
      "drift",
    ]);
  });

  it("gives the same text for the same preview whatever its objects' key order", () => {
    const shuffled = samplePreview();
    shuffled.resources = shuffled.resources.map((r) => Object.fromEntries(Object.entries(r).reverse()) as typeof r);
    expect(renderPreviewJson(shuffled)).toBe(text);
  });

  it("lists every declared object with its action and changes; only a created object carries its would-be object", () => {
    expect(json.resources.map((r: { name: string; action: string }) => `${r.action} ${r.name}`)).toEqual([
      "unchanged shop",
      "change web",
      "create app-config",
      "change db",
      "unchanged web",
    ]);
    expect(json.resources[1].changes).toEqual([
      { path: "/spec/replicas", desired: 3, live: 2, manager: "kubectl-scale" },
    ]);
    expect(json.resources.filter((r: { wouldBe?: unknown }) => r.wouldBe).map((r: { name: string }) => r.name)).toEqual(
      ["app-config"],
    );
    expect(json.resources[2].wouldBe.metadata.name).toBe("app-config");
    expect(text).not.toContain('"live": {');
    for (const secret of [...SECRET_VALUES, ...SECRET_VALUES_BASE64]) expect(text).not.toContain(secret);
  });

  it("keeps each prune's action, reason and guard", () => {
    expect(json.prune[3]).toEqual({
      apiVersion: "v1",
      kind: "Namespace",
      name: "legacy",
      action: "refused",
      reason: "a Namespace is never pruned",
      guard: "kind",
    });
  });

  it("counts its objects, requests, dry-runs and time as the scan's stats do", () => {
    expect(json.stats).toEqual({ objects: 9, requests: 41, durationMs: 620, dryRuns: 4, desired: 5 });
    expect(Object.keys(json.stats)).toEqual(Object.keys(JSON.parse(renderJson(report.drift!)).stats));
  });

  it("prints the drift in the scan's own JSON shape", () => {
    expect(json.drift).toEqual(JSON.parse(renderJson(report.drift!)));
  });

  it("carries a render error's file and line", () => {
    const failed = JSON.parse(renderPreviewJson(renderFailedPreview()));
    expect(failed.status).toBe("render-failed");
    expect(failed.error).toEqual({
      message: "kustomize build infra: accumulating resources: open infra/missing.yaml: no such file or directory",
      file: "infra/kustomization.yaml",
      line: 12,
    });
  });
});
