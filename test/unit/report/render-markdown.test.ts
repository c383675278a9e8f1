import { describe, expect, it } from "vitest";
import type { DriftReport, ResourceReport } from "../../../src/model/types.ts";
import { renderMarkdown } from "../../../src/report/render-markdown.ts";
import { detailsLabels, expectBalancedDetails, expectBalancedFences } from "./markdown-checks.ts";
import { configMap, inSyncReport, sampleReport } from "./sample-report.ts";

describe("renderMarkdown", () => {
  const parts = renderMarkdown(sampleReport());
  const body = parts[0]!;

  it("fits a small report in one part with balanced fences and details", () => {
    expect(parts).toHaveLength(1);
    expectBalancedFences(body);
    expectBalancedDetails(body);
  });

  it("opens with a heading and a status table", () => {
    expect(body.startsWith("### undrift: `infra` has drifted from Git\n")).toBe(true);
    expect(body).toContain(
      "| Status | Count |\n| --- | ---: |\n| Drifted | 3 |\n| Missing | 1 |\n| Orphaned | 1 |\n| In sync | 3 |",
    );
  });

  it("lists problems after the summary", () => {
    expect(body).toContain("- `Certificate.cert-manager.io infra/web-tls`: forbidden: cannot list");
    expect(body.indexOf("Could not compare")).toBeGreaterThan(body.indexOf("| In sync | 3 |"));
  });

  it("has a table row per object that needs a look, with fields and who changed them", () => {
    expect(body).toContain(
      "| Deployment | `shop/web` | drifted | `infra/web.yaml#1` | `/spec/replicas`, `/spec/template/spec/containers/0/env/0/value` | `kubectl-scale`, `kubectl-edit` |",
    );
    expect(body).toContain("| Service | `shop/web` | missing | `infra/web.yaml#0` | *whole object* |  |");
    expect(body).not.toContain("Namespace");
  });

  it("names the person behind a field beside its manager when the cluster recorded the write", () => {
    const report = sampleReport();
    const change = report.resources.flatMap((r) => r.changes).find((c) => c.path === "/data/LOG_LEVEL")!;
    change.actor = {
      username: "alice",
      groups: ["sre", "system:authenticated"],
      sourceIP: "10.1.2.3",
      at: "2026-11-30T10:00:00.412Z",
      confidence: "exact",
    };
    const text = renderMarkdown(report).join("\n");
    expect(text).toContain("| `kubectl-patch` by alice (sre) from 10.1.2.3 | 2026-11-30T10:00:00Z |");
  });

  it("names the people in the overview's Who column and who deleted a missing object, service accounts by their full name", () => {
    const report = sampleReport();
    const deployment = report.resources.find((r) => r.kind === "Deployment")!;
    deployment.changes[0]!.actor = {
      username: "system:serviceaccount:ci:deployer",
      groups: ["system:serviceaccounts", "system:serviceaccounts:ci", "system:authenticated"],
      serviceAccount: "ci:deployer",
      at: "2026-11-30T10:00:00.412Z",
      confidence: "exact",
    };
    const service = report.resources.find((r) => r.kind === "Service")!;
    service.deletedBy = { username: "bob", groups: ["dev"], at: "2026-11-30T09:59:01.000Z", confidence: "exact" };
    const text = renderMarkdown(report).join("\n");
    expect(text).toContain("| `kubectl-scale` by system:serviceaccount:ci:deployer, `kubectl-edit` |");
    expect(text).toContain(
      "| Service | `shop/web` | missing | `infra/web.yaml#0` | *whole object* | deleted by bob (dev) at 2026-11-30T09:59:01.000Z |",
    );
    const block = text.slice(text.indexOf("<details><summary><b>missing</b> <code>v1 Service shop/web"));
    expect(block).toContain("\n\nThe cluster recorded it deleted by bob (dev) at 2026-11-30T09:59:01.000Z.\n");
  });

  it("names nobody where the cluster recorded no write", () => {
    expect(body).not.toContain(" by ");
    expect(body).not.toContain("deleted");
  });

  it("puts each object in its own details block with a diff and its changes", () => {
    expect(detailsLabels(body)).toEqual([
      "apps/v1 Deployment shop/web",
      "v1 ConfigMap infra/app-config",
      "v1 Secret shop/db",
      "v1 Service shop/web",
      "rbac.authorization.k8s.io/v1 ClusterRole legacy-reader",
    ]);
    const configMapBlock = body.slice(body.indexOf("<details><summary><b>drifted</b> <code>v1 ConfigMap"));
    expect(configMapBlock).toContain("```diff\n--- live/v1.ConfigMap.infra.app-config\n");
    expect(configMapBlock).toContain("\n-  LOG_LEVEL: debug\n+  LOG_LEVEL: info\n");
    expect(configMapBlock).toContain(
      '| `/data/LOG_LEVEL` | `"info"` | `"debug"` | `kubectl-patch` | 2026-11-30T10:00:00Z |',
    );
  });

  it("shows a Secret only through the masks it was given", () => {
    const secretLines = body.split("\n").filter((l) => l.includes("password"));
    expect(secretLines).toEqual([
      "| Secret | `shop/db` | drifted | `infra/secret.yaml#0` | `/data/password` | `kubectl-edit` |",
      '-  password: "*** (before)"',
      '+  password: "*** (after)"',
      '| `/data/password` | `"*** (after)"` | `"*** (before)"` | `kubectl-edit` |  |',
    ]);
  });

  it("says an in-sync target is in sync, in one short part", () => {
    const inSync = renderMarkdown(inSyncReport());
    expect(inSync).toEqual([
      "### undrift: `infra` is in sync with Git\n\nAll 3 objects match revision `4b825dc642cb6eb9a060e54bf8d69288fbee4904`.\n",
    ]);
  });

  it("escapes pipes and backticks in table cells so rows keep their columns", () => {
    const report = sampleReport();
    report.resources[1]!.changes[0]!.live = "a|b`c``d";
    const row = renderMarkdown(report)[0]!
      .split("\n")
      .find((l) => l.startsWith("| `/data/LOG_LEVEL`"))!;
    expect(row).toContain('```"a\\|b`c``d"```');
    expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
  });

  it("uses a longer fence when the diff itself holds a fence", () => {
    const report = sampleReport();
    report.resources[1]!.wouldBe = configMap("```\ncode\n```\n");
    const part = renderMarkdown(report)[0]!;
    expect(part).toContain("````diff\n--- live/v1.ConfigMap.infra.app-config");
    expectBalancedFences(part);
  });

  it("splits a large report between objects into parts that each fit", () => {
    const report = largeReport(120, 100);
    const split = renderMarkdown(report);
    expect(split.length).toBeGreaterThan(2);
    const seen: string[] = [];
    split.forEach((part, i) => {
      expect(part.length).toBeLessThanOrEqual(65_536);
      expectBalancedFences(part);
      expectBalancedDetails(part);
      if (i > 0) expect(part.startsWith(`(continued, part ${i + 1} of ${split.length})\n`)).toBe(true);
      seen.push(...detailsLabels(part));
    });
    const expected = report.resources.map((r) => `v1 ConfigMap ${r.namespace}/${r.name}`);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(expected.length);
    expect(split.join("")).not.toContain("diff truncated");
  });

  it("truncates the diff of a single huge object inside its block and says how much is left out", () => {
    const report = largeReport(1, 5_000);
    const split = renderMarkdown(report);
    const all = split.join("");
    expect(detailsLabels(all)).toEqual(["v1 ConfigMap shop/cm-0"]);
    expect(all).toMatch(/\*… diff truncated \(\d+ more lines\)\*\n/);
    for (const part of split) {
      expect(part.length).toBeLessThanOrEqual(65_536);
      expectBalancedFences(part);
      expectBalancedDetails(part);
    }
    const block = all.slice(all.indexOf("<details>"));
    expect(block.indexOf("diff truncated")).toBeGreaterThan(block.lastIndexOf("```"));
    expect(block.indexOf("diff truncated")).toBeLessThan(block.indexOf("</details>"));
    expect(block).toContain("| `/data/key-0` |");
  });

  it("honours a smaller maxLength", () => {
    const split = renderMarkdown(largeReport(10, 100), { maxLength: 10_000 });
    expect(split.length).toBeGreaterThan(1);
    for (const part of split) expect(part.length).toBeLessThanOrEqual(10_000);
  });
});

/** `count` drifted ConfigMaps with `keys` changed keys each. */
function largeReport(count: number, keys: number): DriftReport {
  const resources: ResourceReport[] = [];
  for (let i = 0; i < count; i++) {
    const live: Record<string, string> = {};
    const git: Record<string, string> = {};
    for (let k = 0; k < keys; k++) {
      live[`key-${k}`] = `live value ${k} of config map ${i}`;
      git[`key-${k}`] = `git value ${k} of config map ${i}`;
    }
    const object = (data: Record<string, string>) => ({
      ...configMap("x"),
      metadata: { name: `cm-${i}`, namespace: "shop" },
      data,
    });
    resources.push({
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "shop",
      name: `cm-${i}`,
      status: "drifted",
      source: { file: `infra/cm-${i}.yaml`, document: 0 },
      changes: [{ path: "/data/key-0", desired: git["key-0"], live: live["key-0"], manager: "kubectl-edit" }],
      live: object(live),
      wouldBe: object(git),
    });
  }
  return {
    ...sampleReport(),
    summary: { inSync: 0, drifted: count, missing: 0, orphaned: 0 },
    resources,
    problems: [],
  };
}
