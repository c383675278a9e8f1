import { describe, expect, it } from "vitest";
import type { ResourceReport } from "../../../src/model/types.ts";
import { unifiedDiff } from "../../../src/report/unified-diff.ts";
import { configMap } from "./sample-report.ts";

function configMapReport(live: Record<string, string>, git: Record<string, string>): ResourceReport {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    namespace: "infra",
    name: "app-config",
    status: "drifted",
    changes: [],
    live: { ...configMap("x"), data: live },
    wouldBe: { ...configMap("x"), data: git },
  };
}

/** Fails unless every hunk's header counts match its lines, as `patch` would check. */
function expectConsistentHunks(lines: string[]): void {
  let i = 2;
  while (i < lines.length) {
    const [, oldLines, newLines] = /^@@ -\d+,(\d+) \+\d+,(\d+) @@$/.exec(lines[i]!)!.map(Number);
    let old = 0;
    let added = 0;
    for (i++; i < lines.length && !lines[i]!.startsWith("@@"); i++) {
      if (!lines[i]!.startsWith("+")) old++;
      if (!lines[i]!.startsWith("-")) added++;
    }
    expect([old, added]).toEqual([oldLines, newLines]);
  }
}

describe("unifiedDiff", () => {
  it("is empty when the objects print the same", () => {
    expect(unifiedDiff(configMapReport({ a: "1" }, { a: "1" }))).toEqual([]);
  });

  it("is empty when neither object was given", () => {
    expect(unifiedDiff({ ...configMapReport({}, {}), live: undefined, wouldBe: undefined })).toEqual([]);
  });

  it("shows three lines of context around a change", () => {
    const keys = Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`k${k}`, `v${k}`]));
    const lines = unifiedDiff(configMapReport(keys, { ...keys, k10: "changed" }));
    expect(lines).toEqual([
      "--- live/v1.ConfigMap.infra.app-config",
      "+++ git/v1.ConfigMap.infra.app-config",
      "@@ -14,7 +14,7 @@",
      "   k7: v7",
      "   k8: v8",
      "   k9: v9",
      "-  k10: v10",
      "+  k10: changed",
      "   k11: v11",
      "   k12: v12",
      "   k13: v13",
    ]);
  });

  // What this costs is the benchmark's to say (tests never time); a quadratic blow-up shows as a hung test.
  it("stays correct when almost every line differs", () => {
    const live: Record<string, string> = {};
    const git: Record<string, string> = {};
    for (let k = 0; k < 20_000; k++) {
      live[`key-${k}`] = `live ${k}`;
      git[`key-${k}`] = `git ${k}`;
    }
    const lines = unifiedDiff(configMapReport(live, git));
    expect(lines.filter((l) => l.startsWith("-  key-"))).toHaveLength(20_000);
    expect(lines.filter((l) => l.startsWith("+  key-"))).toHaveLength(20_000);
    expect(lines[2]).toBe("@@ -4,20003 +4,20003 @@");
    expectConsistentHunks(lines);
  });
});
