import { stripVTControlCharacters, styleText } from "node:util";
import { describe, expect, it } from "vitest";
import { renderText } from "../../../src/report/render-text.ts";
import { inSyncReport, sampleReport } from "./sample-report.ts";

const ESC = "\u001b[";

describe("renderText", () => {
  const text = renderText(sampleReport(), { color: false });
  const lines = text.split("\n");

  it("opens with a one-line summary of the target", () => {
    expect(lines[0]).toBe("infra: 3 drifted, 1 missing, 1 orphaned, 3 in sync, 1 problem");
  });

  it("names the context and API server compared with in the summary line, when told them", () => {
    const cluster = { context: "kind-prod", server: "https://127.0.0.1:6443" };
    expect(renderText(inSyncReport(), { color: false, cluster })).toBe(
      "infra: in sync (3 objects) (context kind-prod, server https://127.0.0.1:6443)\n",
    );
  });

  it("says an in-sync target is in sync, in one line", () => {
    expect(renderText(inSyncReport(), { color: false })).toBe("infra: in sync (3 objects)\n");
  });

  it("names each object that needs a look with its status and source", () => {
    expect(lines).toContain("drifted: apps/v1 Deployment shop/web (infra/web.yaml#1)");
    expect(lines).toContain("drifted: v1 ConfigMap infra/app-config (infra/config.yaml#0)");
    expect(lines).toContain("missing: v1 Service shop/web (infra/web.yaml#0)");
    expect(lines).toContain("orphaned: rbac.authorization.k8s.io/v1 ClusterRole legacy-reader");
    expect(text).not.toContain("Namespace shop");
  });

  it("shows a kubectl-diff style unified diff of live against git", () => {
    expect(lines).toContain("--- live/apps.v1.Deployment.shop.web");
    expect(lines).toContain("+++ git/apps.v1.Deployment.shop.web");
    expect(lines).toContain("-  replicas: 5");
    expect(lines).toContain("+  replicas: 3");
    expect(lines).toContain("-              value: debug");
    expect(lines).toContain("+              value: info");
    expect(lines.some((l) => /^@@ -\d+,\d+ \+\d+,\d+ @@$/.test(l))).toBe(true);
    // Three lines of context, no more: the container image is far from both changes.
    expect(lines).not.toContain("    spec:");
  });

  it("keeps the object's own key order in the YAML", () => {
    const missing = lines.slice(
      lines.indexOf("+++ git/v1.Service.shop.web") + 2,
      lines.indexOf("+++ git/v1.Service.shop.web") + 5,
    );
    expect(missing).toEqual(["+apiVersion: v1", "+kind: Service", "+metadata:"]);
  });

  it("shows a missing object as all added and an orphan as all removed", () => {
    expect(text).toContain("--- /dev/null\n+++ git/v1.Service.shop.web\n@@ -0,0 +1,8 @@\n+apiVersion: v1");
    expect(text).toContain("+++ /dev/null\n@@ -1,11 +0,0 @@\n-apiVersion: rbac.authorization.k8s.io/v1");
  });

  it("says who changed each field and when, leaving out what is unknown", () => {
    expect(lines).toContain("  /data/LOG_LEVEL: changed by kubectl-patch at 2026-11-30T10:00:00Z");
    expect(lines).toContain("  /spec/template/spec/containers/0/env/0/value: changed by kubectl-edit");
  });

  it("names the person behind a field when the cluster recorded the write", () => {
    const report = sampleReport();
    const change = report.resources.flatMap((r) => r.changes).find((c) => c.path === "/data/LOG_LEVEL")!;
    change.actor = {
      username: "alice",
      groups: ["sre", "system:authenticated"],
      sourceIP: "10.1.2.3",
      at: "2026-11-30T10:00:00.412Z",
      confidence: "exact",
    };
    const withActor = renderText(report, { color: false }).split("\n");
    expect(withActor).toContain(
      "  /data/LOG_LEVEL: changed by alice (sre) ran kubectl patch at 2026-11-30T10:00:00Z from 10.1.2.3",
    );
    change.actor = {
      username: "system:serviceaccount:ci:deployer",
      groups: ["system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"],
      serviceAccount: "ci:deployer",
      at: "2026-11-30T10:00:00.412Z",
      confidence: "likely",
    };
    expect(renderText(report, { color: false }).split("\n")).toContain(
      "  /data/LOG_LEVEL: changed by system:serviceaccount:ci:deployer ran kubectl patch at 2026-11-30T10:00:00Z (likely)",
    );
  });

  it("says who deleted a missing object when the cluster recorded the deletion", () => {
    const report = sampleReport();
    const service = report.resources.find((r) => r.kind === "Service")!;
    service.deletedBy = {
      username: "bob",
      groups: ["dev", "system:authenticated"],
      sourceIP: "10.1.2.4",
      at: "2026-11-30T09:59:01.000Z",
      confidence: "exact",
    };
    const out = renderText(report, { color: false }).split("\n");
    const header = out.indexOf("missing: v1 Service shop/web (infra/web.yaml#0)");
    expect(out[header + 1]).toBe("  deleted by bob (dev) at 2026-11-30T09:59:01.000Z from 10.1.2.4");
    expect(lines.some((l) => l.includes("deleted by"))).toBe(false);
  });

  it("lists what could not be compared", () => {
    expect(lines).toContain("! Certificate.cert-manager.io infra/web-tls: forbidden: cannot list");
  });

  it("shows a Secret only through the masks it was given", () => {
    const secretLines = lines.filter((l) => l.includes("password"));
    expect(secretLines).toEqual([
      '-  password: "*** (before)"',
      '+  password: "*** (after)"',
      "  /data/password: changed by kubectl-edit",
    ]);
  });

  it("does not fold long strings", () => {
    const report = sampleReport();
    const long = "x".repeat(300);
    const cm = report.resources[1]!;
    (cm.wouldBe!.data as Record<string, string>).REGION = `${long} ${long}`;
    expect(renderText(report, { color: false })).toContain(`+  REGION: ${long} ${long}\n`);
  });

  it("has no colour codes unless asked", () => {
    expect(text).not.toContain(ESC);
  });

  it("colours removed lines red, added green, hunks cyan and headers bold when asked", () => {
    const coloured = renderText(sampleReport(), { color: true });
    const paint = (style: Parameters<typeof styleText>[0], s: string) => styleText(style, s, { validateStream: false });
    expect(coloured).toContain(paint("red", "-  replicas: 5"));
    expect(coloured).toContain(paint("green", "+  replicas: 3"));
    expect(coloured).toContain(paint("cyan", "@@ -6,7 +6,7 @@"));
    expect(coloured).toContain(paint("bold", "drifted: v1 ConfigMap infra/app-config (infra/config.yaml#0)"));
    expect(stripVTControlCharacters(coloured)).toBe(text);
  });

  it("keeps terminal control characters from cluster messages out", () => {
    const report = sampleReport();
    report.problems[0]!.message = "denied\u001b[2J\nnext";
    expect(renderText(report, { color: false })).toContain(
      "! Certificate.cert-manager.io infra/web-tls: denied [2J next\n",
    );
  });
});
