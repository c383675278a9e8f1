import { describe, expect, it } from "vitest";
import type { PreviewReport } from "../../../../src/model/preview-report.ts";
import { renderPreviewCheck } from "../../../../src/report/preview/render-preview-check.ts";
import { detailsLabels, expectBalancedDetails, expectBalancedFences } from "../markdown-checks.ts";
import {
  changesOnlyPreview,
  failingPreview,
  HEAD,
  hugePreview,
  noChangePreview,
  renderFailedPreview,
  SECRET_VALUES,
  SECRET_VALUES_BASE64,
  samplePreview,
} from "../sample-preview.ts";

const LIMIT = 65_535;

function check(...previews: PreviewReport[]) {
  return renderPreviewCheck({ head: HEAD, previews });
}

describe("renderPreviewCheck", () => {
  it("fails when head does not render, naming the target", () => {
    const result = check(changesOnlyPreview(), renderFailedPreview());
    expect(result.conclusion).toBe("failure");
    expect(result.title).toBe("Head does not render: infra");
    expect(result.text).toContain("**Head does not render** at `infra/kustomization.yaml:12`");
  });

  it("fails when the cluster could not be read", () => {
    const failed: PreviewReport = {
      ...renderFailedPreview(),
      status: "failed",
      error: { message: "Unauthorized: the cluster refused the credentials" },
    };
    const result = check(failed);
    expect(result.conclusion).toBe("failure");
    expect(result.title).toBe("Could not preview: infra");
    expect(result.text).toContain(
      "**Could not preview**:\n\n```text\nUnauthorized: the cluster refused the credentials\n```",
    );
  });

  it("fails when an object would fail to apply, and says why in its block and the table", () => {
    const result = check(failingPreview());
    expect(result.conclusion).toBe("failure");
    expect(result.title).toBe("An object would fail to apply: shop");
    expect(result.summary).toContain("**1 would fail**");
    expect(result.text).toContain("<b>change, would fail</b> <code>apps/v1 Deployment shop/web</code>");
    expect(result.text).toContain("**would fail:** 422 Invalid: spec.ports");
  });

  it("fails when a guard refuses one object's prune", () => {
    const result = check(samplePreview());
    expect(result.conclusion).toBe("failure");
    expect(result.title).toBe("Prune refused: shop");
  });

  it("fails when a guard refuses the whole prune", () => {
    const report = noChangePreview("apps");
    report.pruneRefused = "would delete 80% of the tracked objects, over maxPrunePercent 30";
    expect(check(report).conclusion).toBe("failure");
  });

  it("is neutral when the merge would change the cluster, and counts the changes in the title", () => {
    const result = check(changesOnlyPreview(), noChangePreview());
    expect(result.conclusion).toBe("neutral");
    expect(result.title).toBe("1 to create, 2 to change, 1 to delete, 1 to orphan, 1 kept in shop");
  });

  it("is neutral when the only change is an object left orphaned", () => {
    const report = noChangePreview();
    report.prune = [
      { apiVersion: "v1", kind: "ConfigMap", namespace: "edge", name: "old", action: "orphan", reason: "prune is off" },
    ];
    report.summary.orphan = 1;
    expect(check(report).conclusion).toBe("neutral");
  });

  it("succeeds when nothing would change, including targets whose render did not change", () => {
    const result = renderPreviewCheck({ head: HEAD, previews: [noChangePreview()], unchanged: ["docs"] });
    expect(result.conclusion).toBe("success");
    expect(result.title).toBe("No changes to the cluster");
    expect(result.summary).toContain("| `docs` |  |  |  |  |  |  | same render in base and head |");
  });

  it("puts the targets table in the summary and the sections, not the table again, in the text", () => {
    const result = check(changesOnlyPreview(), renderFailedPreview());
    expect(result.summary).toContain("| `shop` | `prod` | 1 | 2 | 2 | 1 | 5 | 1 would be orphaned, 1 kept |");
    expect(result.text).not.toContain("| Target |");
    expect(detailsLabels(result.text)).toEqual([
      "apps/v1 Deployment shop/web",
      "v1 ConfigMap infra/app-config",
      "v1 Secret shop/db",
    ]);
    for (const secret of [...SECRET_VALUES, ...SECRET_VALUES_BASE64]) {
      expect(JSON.stringify(result)).not.toContain(secret);
    }
  });

  it("keeps a huge preview's text within the limit, well-formed, and says how many objects it left out", () => {
    const result = check(hugePreview(3000), renderFailedPreview());
    for (const field of [result.title, result.summary, result.text]) expect(field.length).toBeLessThanOrEqual(LIMIT);
    expectBalancedFences(result.text);
    expectBalancedDetails(result.text);
    const shown = detailsLabels(result.text).length;
    expect(shown).toBeGreaterThan(10);
    const note =
      /\*\*… ([\d,]+) objects not shown\*\* \(in `bulk`\): a check run's text stops at 65,535 characters\./.exec(
        result.text,
      );
    expect(Number(note?.[1]?.replace(/,/g, ""))).toBe(3000 - shown);
    expect(result.text).toContain("run `undrift preview` for the full report");
    expect(result.text).toContain("**Head does not render**");
  });
});
