// A discovered target's report says which reconciler object it follows, that it is suspended, and what the
// reconciler last applied beside what the scan judged: in text, Markdown and JSON.
import { describe, expect, it } from "vitest";
import type { DriftReport } from "../../../src/model/types.ts";
import { renderJson } from "../../../src/report/render-json.ts";
import { renderMarkdown } from "../../../src/report/render-markdown.ts";
import { renderText } from "../../../src/report/render-text.ts";
import { scanReportSchema } from "../../../src/report/report-json-schema.ts";
import { inSyncReport } from "./sample-report.ts";

const sha = "8f25aef8b7bc47f2c553870ffd2c9d54b7dbd875";
const discovered = (reconciler: DriftReport["reconciler"]): DriftReport => ({
  ...inSyncReport(),
  revision: sha,
  ...(reconciler ? { reconciler } : {}),
});
const ks = { from: "flux" as const, kind: "Kustomization", namespace: "flux-system", name: "apps" };

describe("a discovered target's report", () => {
  it("names the Kustomization, says it is suspended and that Flux applied the revision judged", () => {
    const report = discovered({ ...ks, suspended: true, lastAppliedRevision: `main@sha1:${sha}` });
    expect(renderText(report, { color: false }).split("\n").slice(1, 4)).toEqual([
      "follows Flux Kustomization flux-system/apps",
      "Flux Kustomization flux-system/apps is suspended: drift is expected until it resumes",
      `Flux last applied this revision (main@sha1:${sha})`,
    ]);
  });

  it("says when Flux last applied another revision than the one judged", () => {
    const report = discovered({ ...ks, lastAppliedRevision: "main@sha1:0000000000000000000000000000000000000001" });
    expect(renderText(report, { color: false })).toContain(
      `Flux last applied main@sha1:0000000000000000000000000000000000000001; this scan judged ${sha}: a difference may be an apply still to come`,
    );
    expect(renderMarkdown(report).join("\n")).toContain("follows Flux Kustomization flux-system/apps.");
  });

  it("carries the object in the JSON report, valid against its schema, and says nothing for a configured target", () => {
    const json = JSON.parse(renderJson(discovered({ ...ks, suspended: true })));
    expect(json.reconciler).toEqual({ ...ks, suspended: true });
    expect(scanReportSchema.safeParse(json).success).toBe(true);
    const configured = discovered(undefined);
    expect(JSON.parse(renderJson(configured)).reconciler).toBeUndefined();
    expect(renderText(configured, { color: false })).toBe("infra: in sync (3 objects)\n");
  });
});
