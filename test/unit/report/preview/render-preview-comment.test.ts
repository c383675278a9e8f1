import { describe, expect, it } from "vitest";
import { renderPreviewComment } from "../../../../src/report/preview/render-preview-comment.ts";
import { detailsLabels, expectBalancedDetails, expectBalancedFences } from "../markdown-checks.ts";
import {
  changesOnlyPreview,
  HEAD,
  hugePreview,
  noChangePreview,
  renderFailedPreview,
  SECRET_VALUES,
  SECRET_VALUES_BASE64,
  samplePreview,
} from "../sample-preview.ts";

/** What the app passes: GitHub's limit less room for the marker line. */
const MAX_LENGTH = 65_536 - 100;

function expectWellFormed(parts: string[], maxLength = MAX_LENGTH): void {
  for (const part of parts) {
    expect(part.length).toBeLessThanOrEqual(maxLength);
    expectBalancedFences(part);
    expectBalancedDetails(part);
  }
}

function tableRows(part: string): string[] {
  const lines = part.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| Target |"));
  const rows: string[] = [];
  for (let i = start + 2; lines[i]?.startsWith("|"); i++) rows.push(lines[i]!);
  return rows;
}

describe("renderPreviewComment", () => {
  const input = {
    head: samplePreview().head,
    previews: [samplePreview(), renderFailedPreview(), noChangePreview()],
    unchanged: ["docs"],
    pending: ["batch"],
  };
  const parts = renderPreviewComment(input, { maxLength: MAX_LENGTH });
  const body = parts[0]!;

  it("fits a small preview in one well-formed part headed by the short head SHA", () => {
    expect(parts).toHaveLength(1);
    expectWellFormed(parts);
    expect(body.startsWith("### undrift preview for `9fceb02`\n")).toBe(true);
  });

  it("says when head is behind its base branch, and only then", () => {
    expect(body).not.toContain("behind its base branch");
    const behind = renderPreviewComment({ ...input, behindBy: 1 }, { maxLength: MAX_LENGTH })[0]!;
    expect(behind).toContain("> This branch is 1 commit behind its base branch.");
    expect(tableRows(behind)).toEqual(tableRows(body));
  });

  it("has one summary row per target, unchanged and pending ones included", () => {
    expect(tableRows(body)).toEqual([
      "| `shop` | `prod` | 1 | 2 | 2 | 1 | 5 | **prune refused**, 1 would be orphaned, 1 kept |",
      "| `infra` | `prod` | – | – | – | – | – | **render failed** |",
      "| `edge` | `prod` | 0 | 0 | 1 | 0 | 0 | no changes |",
      "| `docs` |  |  |  |  |  |  | same render in base and head |",
      "| `batch` |  |  |  |  |  |  | pending |",
    ]);
  });

  it("gives each created or changed object one details block, in render order, and never lists unchanged ones", () => {
    expect(detailsLabels(body)).toEqual([
      "apps/v1 Deployment shop/web",
      "v1 ConfigMap infra/app-config",
      "v1 Secret shop/db",
    ]);
    expect(body).toContain("Base `4b825dc` → head `9fceb02`: 1 to create, 2 to change, 1 to delete");
    expect(body).toContain(", 2 unchanged.");
    expect(body).not.toContain("<b>unchanged</b>");
    expect(body).not.toContain("`v1 Namespace shop`");
  });

  it("diffs a change from live to what the apply would leave, with its field table", () => {
    const block = body.slice(body.indexOf("<details><summary><b>change</b> <code>apps/v1 Deployment shop/web"));
    expect(block).toContain("```diff\n--- live/apps.v1.Deployment.shop.web\n+++ git/apps.v1.Deployment.shop.web\n");
    expect(block).toContain("\n-  replicas: 2\n+  replicas: 3\n");
    expect(block).toContain("| `/spec/replicas` | `3` | `2` | `kubectl-scale` |  |");
  });

  it("shows a created object as all added, with its note", () => {
    const block = body.slice(body.indexOf("<details><summary><b>create</b> <code>v1 ConfigMap infra/app-config"));
    expect(block).toContain(
      "</summary>\n\n*namespace infra is created by this pull request: shown as rendered, without the server's defaults*\n\n```diff\n--- /dev/null\n+++ git/v1.ConfigMap.infra.app-config\n@@ -0,0 +1,8 @@\n+apiVersion: v1\n+kind: ConfigMap\n",
    );
  });

  it("shows a changed Secret as changed, through its masks only", () => {
    expect(body).toContain("<details><summary><b>change</b> <code>v1 Secret shop/db</code>");
    expect(body).toContain('-  password: "*** (before)"\n+  password: "*** (after)"');
    expect(body).toContain('| `/data/password` | `"*** (after)"` | `"*** (before)"` | `kubectl-edit` |  |');
    for (const secret of [...SECRET_VALUES, ...SECRET_VALUES_BASE64]) expect(body).not.toContain(secret);
  });

  it("lists each prune with what the merge would do and why", () => {
    expect(body).toContain("**Live objects head no longer declares** (4):\n\n| Object | Action | Reason |");
    expect(body).toContain("| `v1 ConfigMap shop/old-config` | **would be deleted** |  |");
    expect(body).toContain(
      "| `v1 ConfigMap shop/legacy-flags` | **would be orphaned** | prune is off for this target (guard `not-requested`) |",
    );
    expect(body).toContain(
      "| `v1 ConfigMap shop/keep-me` | **kept** | annotation undrift.io/prune: disabled (guard `opted-out`) |",
    );
    expect(body).toContain("| `v1 Namespace legacy` | **refused** | a Namespace is never pruned (guard `kind`) |");
    expect(body).toContain("**Prune refused** for 1 of the objects below");
  });

  it("says once when a guard refused the whole prune", () => {
    const report = samplePreview();
    report.pruneRefused = "the render is empty";
    const text = renderPreviewComment({ head: report.head, previews: [report] })[0]!;
    expect(text).toContain("**Prune refused**: the render is empty. Nothing would be deleted.");
    expect(text).not.toContain("of the objects below");
  });

  it("notes the drift the cluster already has against base, in a collapsed list", () => {
    expect(body).toContain(
      "<details><summary>The cluster already differs from base <code>4b825dc</code>: 5 objects</summary>",
    );
    expect(body).toContain(
      "- drifted `apps/v1 Deployment shop/web`: `/spec/replicas`, `/spec/template/spec/containers/0/env/0/value`",
    );
    expect(body).toContain("- orphaned `rbac.authorization.k8s.io/v1 ClusterRole legacy-reader`");
    expect(body).toContain("The cluster matches base `4b825dc`.");
  });

  it("names the person behind each drifted field of drift-now, and who deleted a missing object", () => {
    const report = samplePreview();
    const drift = report.drift!;
    const deployment = drift.resources.find((r) => r.kind === "Deployment")!;
    deployment.changes[0]!.actor = {
      username: "alice",
      groups: ["sre"],
      at: "2026-11-30T10:00:00.412Z",
      confidence: "exact",
    };
    drift.resources.find((r) => r.kind === "Service")!.deletedBy = {
      username: "bob",
      groups: ["dev"],
      at: "2026-11-30T09:59:01.000Z",
      confidence: "likely",
    };
    const text = renderPreviewComment({ head: report.head, previews: [report] }, { maxLength: MAX_LENGTH }).join("\n");
    expect(text).toContain(
      "- drifted `apps/v1 Deployment shop/web`: `/spec/replicas` by alice (sre) at 2026-11-30T10:00:00.412Z, `/spec/template/spec/containers/0/env/0/value`",
    );
    expect(text).toContain(
      "- missing `v1 Service shop/web` (deleted by bob (dev) at 2026-11-30T09:59:01.000Z (likely))",
    );
  });

  it("cuts a long drift list inside its block and says how many it left out", () => {
    const report = changesOnlyPreview();
    const drift = report.drift!;
    drift.resources = Array.from({ length: 3000 }, (_, i) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "shop",
      name: `drifted-${i}`,
      status: "drifted" as const,
      changes: [{ path: "/data/a", desired: "1", live: "2" }],
    }));
    report.summary.drift = 3000;
    const parts = renderPreviewComment({ head: report.head, previews: [report] }, { maxLength: 20_000 });
    expectWellFormed(parts, 20_000);
    const note = parts.find((p) => p.includes("The cluster already differs from base"))!;
    const listed = note.split("\n").filter((l) => l.startsWith("- drifted `v1 ConfigMap shop/drifted-")).length;
    expect(listed).toBeGreaterThan(50);
    expect(note).toContain(`- *… and ${3000 - listed} more*\n\n</details>`);
  });

  it("lists what the head scan could not compare", () => {
    const report = changesOnlyPreview();
    report.problems = [
      { kind: "Certificate", group: "cert-manager.io", namespace: "shop", name: "web-tls", message: "forbidden" },
    ];
    const text = renderPreviewComment({ head: report.head, previews: [report] })[0]!;
    expect(text).toContain("**Could not compare** (1):\n\n- `Certificate.cert-manager.io shop/web-tls`: forbidden");
    expect(tableRows(text)[0]).toContain("| 1 would be orphaned, 1 kept, 1 problem |");
  });

  it("says where head does not render, file and line, with the message in a fence", () => {
    const section = body.slice(body.indexOf("#### `infra`"));
    expect(section).toContain(
      "**Head does not render** at `infra/kustomization.yaml:12`:\n\n```text\nkustomize build infra: accumulating resources: open infra/missing.yaml: no such file or directory\n```",
    );
  });

  it("says the base's render failure instead of a drift count", () => {
    const report = samplePreview();
    delete report.drift;
    report.baseError = "helm template: chart not found";
    const text = renderPreviewComment({ head: report.head, previews: [report] })[0]!;
    expect(tableRows(text)[0]).toBe(
      "| `shop` | `prod` | 1 | 2 | 2 | 1 | ? | **prune refused**, 1 would be orphaned, 1 kept, drift against base unknown |",
    );
    expect(text).toContain("The cluster's drift from base is unknown: helm template: chart not found");
  });

  it("says so when no target is affected", () => {
    expect(renderPreviewComment({ head: "feature/x", previews: [] })).toEqual([
      "### undrift preview for `feature/x`\n\nThis pull request changes no target's render: merging it leaves the cluster as it is.\n",
    ]);
  });

  it("cuts long errors and reasons so even the smallest parts hold them", () => {
    const failed = renderFailedPreview();
    failed.error!.message = "line of helm output\n".repeat(2000);
    const refused = samplePreview();
    refused.pruneRefused = "<&>".repeat(2000);
    refused.baseError = "|`*".repeat(2000);
    const parts = renderPreviewComment({ head: HEAD, previews: [failed, refused] }, { maxLength: 4096 });
    expectWellFormed(parts, 4096);
    expect(parts.join("")).toContain("**Head does not render** at `infra/kustomization.yaml:12`");
  });

  it("refuses a maxLength too small for one object's summary", () => {
    expect(() => renderPreviewComment(input, { maxLength: 1000 })).toThrow(RangeError);
  });
});

describe("renderPreviewComment on a large pull request", () => {
  const bulk = hugePreview(3000);
  const order = bulk.resources.map((r) => `v1 ConfigMap bulk/${r.name}`);

  it("splits between objects, lists each object once, and counts the rest in the last part", () => {
    const parts = renderPreviewComment(
      { head: bulk.head, previews: [bulk, renderFailedPreview()] },
      { maxLength: MAX_LENGTH },
    );
    expect(parts).toHaveLength(10);
    expectWellFormed(parts);
    parts.slice(1).forEach((part, i) => {
      expect(part.startsWith(`(continued, part ${i + 2} of 10)\n`)).toBe(true);
    });
    const shown = parts.flatMap(detailsLabels);
    expect(new Set(shown).size).toBe(shown.length);
    // Diffs are left out from the end: what is shown is the start of the render order.
    expect(shown).toEqual(order.slice(0, shown.length));
    const note = /\*\*… ([\d,]+) objects not shown\*\* \(in `bulk`\): this comment stops at 10 parts\./.exec(parts[9]!);
    expect(note).not.toBeNull();
    expect(shown.length + Number(note![1]!.replace(/,/g, ""))).toBe(3000);
    expect(parts[9]).toContain("see the undrift/preview check run");
  });

  it("keeps a later target's render error when diffs are left out", () => {
    const parts = renderPreviewComment({ head: bulk.head, previews: [bulk, renderFailedPreview()] }, { maxParts: 2 });
    expect(parts).toHaveLength(2);
    expect(parts.join("")).toContain("**Head does not render** at `infra/kustomization.yaml:12`");
    expect(tableRows(parts[0]!)).toHaveLength(2);
  });

  it("shows every object once when the parts are not capped", () => {
    const some = hugePreview(600);
    const parts = renderPreviewComment({ head: some.head, previews: [some] }, { maxParts: 1000 });
    expect(parts.length).toBeGreaterThan(10);
    expectWellFormed(parts, 65_536);
    expect(parts.flatMap(detailsLabels)).toEqual(order.slice(0, 600));
    expect(parts.join("")).not.toContain("not shown");
  });

  it("cuts one huge object's diff inside its block and keeps its field table", () => {
    const one = hugePreview(1, 6000);
    const parts = renderPreviewComment({ head: one.head, previews: [one] }, { maxLength: MAX_LENGTH });
    expectWellFormed(parts);
    const all = parts.join("");
    expect(detailsLabels(all)).toEqual(["v1 ConfigMap bulk/cm-0"]);
    const block = all.slice(all.indexOf("<details><summary><b>change</b>"));
    expect(block).toMatch(/\*… diff truncated \(\d+ more lines\)\*\n/);
    expect(block).toContain("| `/data/key-0` |");
    expect(block.indexOf("</details>")).toBeGreaterThan(block.indexOf("diff truncated"));
  });

  it("slices a long prune table across parts with its header atop each slice", () => {
    const report = samplePreview();
    report.prune = Array.from({ length: 2000 }, (_, i) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "shop",
      name: `stale-${i}`,
      action: "delete" as const,
    }));
    const parts = renderPreviewComment({ head: report.head, previews: [report] }, { maxLength: 20_000 });
    expect(parts.length).toBeGreaterThan(2);
    expectWellFormed(parts, 20_000);
    const rows = parts.flatMap((p) => p.split("\n").filter((l) => l.startsWith("| `v1 ConfigMap shop/stale-")));
    expect(rows).toHaveLength(2000);
    expect(new Set(rows).size).toBe(2000);
    for (const part of parts.filter((p) => p.includes("stale-")))
      expect(part).toContain("| Object | Action | Reason |");
  });
});
