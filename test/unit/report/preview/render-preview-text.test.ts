import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { renderPreviewText } from "../../../../src/report/preview/render-preview-text.ts";
import {
  changesOnlyPreview,
  failingPreview,
  INVALID_PORT,
  noChangePreview,
  renderFailedPreview,
  SECRET_VALUES,
  SECRET_VALUES_BASE64,
  samplePreview,
} from "../sample-preview.ts";

describe("renderPreviewText", () => {
  const text = renderPreviewText(samplePreview());
  const lines = text.split("\n");

  it("opens with the target, the revisions and what the merge would do", () => {
    expect(lines[0]).toBe(
      "shop on prod (4b825dc → 9fceb02): 1 to create, 2 to change, 1 to delete, 1 to orphan, 1 prune refused, 1 kept, 2 unchanged",
    );
  });

  it("names the kubeconfig context and server compared with at the end of that line, when told them", () => {
    const cluster = { context: "kind-prod", server: "https://127.0.0.1:6443" };
    expect(renderPreviewText(samplePreview(), { cluster }).split("\n")[0]).toBe(
      `${lines[0]} (context kind-prod, server https://127.0.0.1:6443)`,
    );
  });

  it("says under an object the server refused that the apply would fail, and why", () => {
    const failing = renderPreviewText(failingPreview()).split("\n");
    const at = failing.indexOf("~ change: apps/v1 Deployment shop/web (shop/web.yaml#1)");
    expect(failing[at + 1]).toBe(`  ! would fail: ${INVALID_PORT}`);
    expect(lines).not.toContain(`  ! would fail: ${INVALID_PORT}`);
  });

  it("marks created and changed objects and lists each changed field from live to head", () => {
    expect(lines).toContain("~ change: apps/v1 Deployment shop/web (shop/web.yaml#1)");
    expect(lines).toContain("  /spec/replicas: 2 → 3");
    expect(lines).toContain("+ create: v1 ConfigMap infra/app-config (shop/config.yaml#0)");
    expect(lines).toContain(
      "  note: namespace infra is created by this pull request: shown as rendered, without the server's defaults",
    );
    expect(text).not.toContain("Service shop/web");
    expect(text).not.toContain("Namespace shop");
  });

  it("shows kubectl-diff style diffs: a change against live, a create against nothing", () => {
    expect(lines).toContain("--- live/apps.v1.Deployment.shop.web");
    expect(lines).toContain("-  replicas: 2");
    expect(lines).toContain("+  replicas: 3");
    expect(text).toContain("--- /dev/null\n+++ git/v1.ConfigMap.infra.app-config\n@@ -0,0 +1,8 @@\n+apiVersion: v1");
  });

  it("shows a changed Secret as changed, through its masks only", () => {
    expect(lines).toContain("~ change: v1 Secret shop/db (shop/secret.yaml#0)");
    expect(lines).toContain('  /data/password: "*** (before)" → "*** (after)"');
    for (const secret of [...SECRET_VALUES, ...SECRET_VALUES_BASE64]) expect(text).not.toContain(secret);
  });

  it("lists each prune with its action and reason", () => {
    expect(lines).toContain("- delete: v1 ConfigMap shop/old-config");
    expect(lines).toContain(
      "? orphan: v1 ConfigMap shop/legacy-flags (prune is off for this target; guard not-requested)",
    );
    expect(lines).toContain(
      "= keep: v1 ConfigMap shop/keep-me (annotation undrift.io/prune: disabled; guard opted-out)",
    );
    expect(lines).toContain("! refused: v1 Namespace legacy (a Namespace is never pruned; guard kind)");
  });

  it("says how far the cluster already is from base", () => {
    expect(lines).toContain(
      "drift now: the cluster already differs from base 4b825dc: 5 objects (3 drifted, 1 missing, 1 orphaned)",
    );
    expect(renderPreviewText(noChangePreview())).toBe(
      "edge on prod (4b825dc → 9fceb02): nothing to change, 1 unchanged\n\ndrift now: the cluster matches base 4b825dc\n",
    );
  });

  it("says a whole-prune refusal once", () => {
    const report = changesOnlyPreview();
    report.pruneRefused = "the render is empty";
    expect(renderPreviewText(report).split("\n")).toContain("! prune refused: the render is empty");
  });

  it("says where head does not render", () => {
    expect(renderPreviewText(renderFailedPreview())).toBe(
      "infra on prod (4b825dc → 9fceb02): head does not render\nerror: infra/kustomization.yaml:12: kustomize build infra: accumulating resources: open infra/missing.yaml: no such file or directory\n",
    );
  });

  it("colours only when asked, and the colours carry no other difference", () => {
    const coloured = renderPreviewText(samplePreview(), { color: true });
    expect(coloured).toContain("\u001b[");
    expect(text).not.toContain("\u001b[");
    expect(stripVTControlCharacters(coloured)).toBe(text);
  });

  it("keeps control characters from the cluster out of the terminal", () => {
    const report = samplePreview();
    report.prune[1]!.reason = "evil\u001b[2Jreason";
    expect(renderPreviewText(report)).not.toContain("\u001b[2J");
  });
});
