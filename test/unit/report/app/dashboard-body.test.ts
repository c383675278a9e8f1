// The tracking issue's dashboard as a reader sees it: boxes per object and per
// field, no codify for what codify cannot handle, snoozes and the log shown,
// and a large target folded under GitHub's body limit with every box shown
// still carrying its marker.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DriftReport, ResourceReport } from "../../../../src/model/types.ts";
import { dashboardBoxes, renderDashboard } from "../../../../src/report/app/dashboard-body.ts";
import { boxId, readBoxes } from "../../../../src/report/app/dashboard-boxes.ts";
import { bodyLimit } from "../../../../src/report/markers.ts";
import { expectBalancedDetails } from "../markdown-checks.ts";

const notSecret = (r: ResourceReport) => r.kind !== "Secret";

function report(resources: ResourceReport[]): DriftReport {
  return {
    target: "infra",
    revision: "a".repeat(40),
    summary: { inSync: 0, drifted: resources.length, missing: 0, orphaned: 0 },
    resources,
    problems: [],
    fingerprint: "f00d",
  };
}

function deployment(name: string, paths = ["/spec/replicas"]): ResourceReport {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    namespace: "shop",
    name,
    status: "drifted",
    changes: paths.map((path) => ({ path, desired: 2, live: 4 })),
  };
}

const secret: ResourceReport = {
  apiVersion: "v1",
  kind: "Secret",
  namespace: "shop",
  name: "db",
  status: "drifted",
  changes: [{ path: "/data/password", desired: "***", live: "***" }],
};

describe("renderDashboard", () => {
  it("gives each object and each of its fields codify, revert and ignore boxes, snoozes per object, and one rescan box", () => {
    const log = [
      "@bob asked to codify `apps/v1 Deployment shop/web` `/spec/replicas` → #2 https://github.com/acme/gitops/pull/2",
    ];
    const text = renderDashboard({
      report: report([deployment("web")]),
      codifiable: notSecret,
      log,
      maxLength: 30_000,
    });
    expect(text).toMatchSnapshot();
    // The README shows this output quoted, so GitHub renders it as in the issue; it must not drift from it.
    const readme = readFileSync(join(import.meta.dirname, "../../../../README.md"), "utf8");
    expect(readme).toContain(
      text
        .split("\n")
        .map((line) => (line ? `> ${line}` : ">"))
        .join("\n"),
    );
    const ref = { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" };
    const boxes = readBoxes(text);
    expect(boxes.map((b) => b.action)).toEqual([
      "rescan",
      "codify",
      "revert",
      "ignore",
      "snooze-1d",
      "snooze-7d",
      "codify",
      "revert",
      "ignore",
    ]);
    expect(boxes.every((b) => !b.checked)).toBe(true);
    expect(boxes[6]?.id).toBe(boxId({ target: "infra", action: "codify", ref, path: "/spec/replicas" }));
    expect(new Set(boxes.map((b) => b.id)).size).toBe(boxes.length);
  });

  it("offers revert and ignore, not codify, for a Secret", () => {
    const text = renderDashboard({ report: report([secret]), codifiable: notSecret, maxLength: 30_000 });
    expect(text).toContain("codify cannot handle it: revert or ignore");
    expect(readBoxes(text).map((b) => b.action)).toEqual([
      "rescan",
      "revert",
      "ignore",
      "snooze-1d",
      "snooze-7d",
      "revert",
      "ignore",
    ]);
    expect(
      [...dashboardBoxes({ report: report([secret]), codifiable: notSecret }).values()].map((i) => i.action),
    ).not.toContain("codify");
  });

  it("shows what is snoozed until when and by whom, and the lines of who asked for what", () => {
    const text = renderDashboard({
      report: report([deployment("web")]),
      codifiable: notSecret,
      snoozes: [
        {
          ref: { apiVersion: "v1", kind: "ConfigMap", namespace: "shop", name: "app" },
          until: "2026-12-03 17:00 UTC",
          by: "bob",
        },
      ],
      log: ["@bob asked to codify `x` → #3"],
      maxLength: 30_000,
    });
    expect(text).toContain("- `v1 ConfigMap shop/app` until 2026-12-03 17:00 UTC, asked by @bob");
    expect(text).toContain("<!-- undrift:log of=dashboard -->\n- @bob asked to codify `x` → #3");
  });

  it("folds 2,000 objects into a section per kind under the limit, says how many are not shown, and keeps the boxes it shows", () => {
    const many = [
      ...Array.from({ length: 1500 }, (_, i) =>
        deployment(`web-${i}`, ["/spec/replicas", "/spec/template/spec/containers/0/image"]),
      ),
      ...Array.from({ length: 500 }, (_, i) => ({ ...secret, name: `db-${i}` })),
    ];
    const big = report(many);
    const text = renderDashboard({ report: big, codifiable: notSecret, maxLength: 30_000 });
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(text.length).toBeLessThan(bodyLimit);
    expectBalancedDetails(text);
    expect(text).toContain("<details><summary>Deployment: 1500 object(s)</summary>");
    expect(text).toContain("<details><summary>Secret: 500 object(s)</summary>");
    const shown = [...text.matchAll(/^- `apps\/v1 Deployment shop\/(web-\d+)`/gm)].length;
    expect(shown).toBeGreaterThan(10);
    expect(text).toContain(`_${1500 - shown} more Deployment object(s) not shown here (GitHub's length limit)._`);
    expect(text).toMatch(/_\d+ object\(s\) in all are not shown with boxes; the check run lists every one\._/);
    // Every box shown is whole: its marker parses, and names a box the report has.
    const known = dashboardBoxes({ report: big, codifiable: notSecret });
    const boxes = readBoxes(text);
    expect(boxes.length).toBe(text.split("\n").filter((l) => /^\s*- \[ \]/.test(l)).length);
    const secrets = [...text.matchAll(/^- `v1 Secret shop\/db-\d+`/gm)].length;
    expect(boxes.length).toBe(1 + shown * 11 + secrets * 6);
    expect(boxes.every((b) => known.get(b.id)?.action === b.action)).toBe(true);
  });
});
