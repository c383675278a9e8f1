import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { ObjectRecord, RevertResult } from "../../../src/model/change-set.ts";
import { codifyResultSchema } from "../../../src/report/codify/codify-json-schema.ts";
import { renderCodifyJson } from "../../../src/report/codify/render-codify-json.ts";
import { outputJsonSchema, outputSchemas } from "../../../src/report/output-json-schemas.ts";
import { previewReportSchema } from "../../../src/report/preview/preview-json-schema.ts";
import { renderPreviewJson } from "../../../src/report/preview/render-preview-json.ts";
import { renderJson } from "../../../src/report/render-json.ts";
import { scanReportSchema } from "../../../src/report/report-json-schema.ts";
import { revertResultSchema } from "../../../src/report/revert/revert-json-schema.ts";
import { renderFailedPreview, samplePreview } from "./sample-preview.ts";
import { inSyncReport, sampleReport } from "./sample-report.ts";

const files = Object.keys(outputSchemas) as Array<keyof typeof outputSchemas>;
const schemaDir = new URL("../../../schema/", import.meta.url);

/** Parses with the zod schema, which drops fields it does not describe: equal means every field is described. */
function expectDescribed(schema: { parse(value: unknown): unknown }, text: string) {
  const json = JSON.parse(text);
  expect(schema.parse(json)).toEqual(json);
}

function revertResult(): RevertResult {
  const web = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };
  const resources: ObjectRecord[] = [
    {
      ...web,
      action: "configured",
      changes: ["/spec/replicas"],
      takenFrom: ["kubectl-scale"],
      health: { status: "healthy", waited: true },
    },
    {
      ...web,
      name: "api",
      action: "failed",
      reason: "conflict",
      conflicts: [{ field: ".spec.replicas", manager: "hpa" }],
    },
    { apiVersion: "v1", kind: "Namespace", name: "legacy", action: "skipped", guard: "kind", reason: "a Namespace" },
  ];
  return {
    target: "shop",
    revision: "0c5f3e1",
    dryRun: false,
    wait: "all",
    summary: { created: 0, configured: 1, unchanged: 0, deleted: 0, deleting: 0, skipped: 1, failed: 1 },
    resources,
    problems: [{ kind: "Secret", group: "", message: "cannot list secrets: Forbidden (403)" }],
    stats: { requests: 30, durationMs: 900 },
  };
}

describe("schema/*.schema.json of the JSON outputs", () => {
  it.each(files)("%s is what `npm run schema` generates (run it after changing an output's schema)", async (file) => {
    const committed = await readFile(new URL(file, schemaDir), "utf8");
    expect(committed).toBe(`${JSON.stringify(outputJsonSchema(file), null, 2)}\n`);
  });

  it("leaves objects open, so output of a later version with added fields still validates", () => {
    for (const file of files)
      expect(JSON.stringify(outputJsonSchema(file))).not.toContain('"additionalProperties":false');
  });

  it("describes every field of the scan report, with or without stats", () => {
    expectDescribed(scanReportSchema, renderJson(sampleReport()));
    expectDescribed(scanReportSchema, renderJson(inSyncReport()));
  });

  it("describes every field of a preview, previewed or not rendered", () => {
    expectDescribed(previewReportSchema, renderPreviewJson(samplePreview()));
    expectDescribed(previewReportSchema, renderPreviewJson(renderFailedPreview()));
  });

  it("describes every field of a revert result and of a codify result", () => {
    expectDescribed(revertResultSchema, JSON.stringify(revertResult()));
    const codify = {
      target: "shop",
      files: [{ file: "shop/web.yaml", before: "replicas: 2\n", after: "replicas: 3\n" }],
      codified: [
        {
          apiVersion: "apps/v1",
          kind: "Deployment",
          namespace: "shop",
          name: "web",
          status: "drifted" as const,
          file: "shop/web.yaml",
          files: ["shop/web.yaml"],
        },
      ],
      notCodified: [
        {
          apiVersion: "v1",
          kind: "Secret",
          namespace: "shop",
          name: "db",
          reason: "a Secret's value is never written to Git",
        },
      ],
      problems: [],
    };
    expectDescribed(codifyResultSchema, renderCodifyJson(codify, { dryRun: true }));
    expectDescribed(codifyResultSchema, renderCodifyJson(codify, { dryRun: false }));
  });
});
