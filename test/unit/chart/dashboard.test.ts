// The chart's Grafana dashboard (charts/undrift/files/dashboard.json) and the
// alerts read what undrift really exports: every query is PromQL that promtool
// parses, and every metric and label it names is one undrift's own registry
// exposes after a scan recorded the way the worker records it. Renaming a
// metric or a label in src/metrics without the dashboard and alerts fails here.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { recordModeEvents, recordScan, recordScanEnd } from "../../../src/metrics/record-scan.ts";
import { createMetrics } from "../../../src/metrics/undrift-metrics.ts";
import type { DriftReport } from "../../../src/model/types.ts";
import {
  chartFiles,
  checkRules,
  exposedSeries,
  metricsIn,
  renderAlerts,
  scratchDir,
  unknownNames,
} from "./chart-tools.ts";

interface Target {
  expr: string;
  legendFormat?: string;
  refId: string;
  datasource: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: string | { query: string };
  definition?: string;
}

const dashboard = JSON.parse(readFileSync(join(chartFiles, "dashboard.json"), "utf8"));
const panels: Panel[] = dashboard.panels.filter((p: Panel) => p.type !== "row");
const variables: Variable[] = dashboard.templating.list;
const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, target })));
const variableQueries = variables.filter((v) => v.type === "query").map((v) => (v.query as { query: string }).query);

/** Grafana's variables and macros as a query is sent: every value of a variable, a typical interval. */
function asSent(expr: string): string {
  const sent = expr
    .replaceAll("$__rate_interval", "5m")
    .replaceAll("$__range", "1d")
    .replace(/\$(cluster|repo|target)\b/g, ".*");
  if (sent.includes("$")) throw new Error(`a Grafana variable this test does not know: ${sent}`);
  return sent;
}

/** undrift's /metrics after one scan, a failed one, heal's events, GitHub answers and a queue read. */
async function exposition(): Promise<string> {
  const metrics = createMetrics();
  const labels = { repo: "acme/gitops", target: "shop", cluster: "prod-eu" };
  const report: DriftReport = {
    target: "shop",
    revision: "abc",
    summary: { inSync: 3, drifted: 1, missing: 1, orphaned: 1 },
    resources: [],
    problems: [],
    fingerprint: "f",
    stats: { objects: 6, desired: 5, requests: 12, dryRuns: 3, durationMs: 1500 },
  };
  recordScan({ ...labels, metrics, report });
  recordScanEnd({ metrics, cluster: "prod-eu", result: "failed" });
  recordModeEvents({ ...labels, metrics, events: ["heal", "heal-failed", "heal-stopped", "prune", "prune-refused"] });
  // As the App's octokit counts each answer (src/github/app-octokit.ts).
  metrics.githubRequests.inc({ status: "200" });
  metrics.githubRateLimit.set({ installation: "42" }, 4999);
  const stop = metrics.watchQueues(async () => [{ queue: "undrift-scan.prod-eu", counts: { waiting: 2, active: 1 } }]);
  try {
    return await metrics.registry.metrics();
  } finally {
    stop();
  }
}

const text = await exposition();
const series = exposedSeries(text);
const alertRules = (() => {
  const { file, error } = renderAlerts();
  if (!file) throw new Error(error);
  return parse(readFileSync(file, "utf8")).groups.flatMap((g: { rules: object[] }) => g.rules) as Array<{
    alert: string;
    expr: string;
    annotations: Record<string, string>;
  }>;
})();

describe("the names the dashboard and the alerts read", () => {
  it("catch a metric or label undrift does not export", () => {
    expect(unknownNames('sum by (cluster) (undrift_scans_totals{result="failed"})', series)).toEqual([
      "metric undrift_scans_totals",
      "label result",
      "label cluster",
    ]);
    expect(unknownNames("max by (namespace) (undrift_drift_objects)", series)).toEqual(["label namespace"]);
  });

  it("are metrics and labels undrift's registry exposes, for every alert", () => {
    for (const rule of alertRules) {
      expect(unknownNames(rule.expr, series), rule.alert).toEqual([]);
      const used = [
        ...Object.values(rule.annotations)
          .join(" ")
          .matchAll(/\$labels\.(\w+)/g),
      ].map((m) => m[1]);
      expect(unknownNames(`${rule.expr} by (${used.join(", ")})`, series), `${rule.alert} annotations`).toEqual([]);
    }
  });

  it("are metrics and labels undrift's registry exposes, for every panel, legend and variable", () => {
    for (const { panel, target } of queries) {
      const legend = [...(target.legendFormat ?? "").matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
      const where = `${panel.title} ${target.refId}`;
      expect(unknownNames(target.expr, series), where).toEqual([]);
      expect(unknownNames(`${target.expr} by (${legend.join(", ")})`, series), `${where} legend`).toEqual([]);
    }
    for (const query of variableQueries) expect(unknownNames(query, series), query).toEqual([]);
  });

  it("cover every metric undrift exports on the dashboard", () => {
    const shown = new Set(queries.flatMap(({ target }) => metricsIn(target.expr)));
    const families = [...text.matchAll(/^# TYPE (undrift_\S+) /gm)]
      .map((m) => m[1] ?? "")
      .filter((name) => !name.startsWith("undrift_process_"));
    expect(families.length).toBeGreaterThanOrEqual(11);
    for (const family of families)
      expect(
        ["", "_bucket", "_sum", "_count"].some((suffix) => shown.has(`${family}${suffix}`)),
        family,
      ).toBe(true);
  });
});

describe("the dashboard", { timeout: 60_000 }, () => {
  it("is PromQL promtool parses in every panel and variable", () => {
    const rules = [
      ...queries.map(({ panel, target }) => ({
        record: `dashboard:panel_${panel.id}_${target.refId}`,
        expr: asSent(target.expr),
      })),
      ...variableQueries.map((query, i) => ({
        record: `dashboard:variable_${i}`,
        // label_values(selector, label): the selector is what Grafana sends.
        expr: asSent(/^label_values\((.*),\s*\w+\)$/.exec(query)?.[1] ?? query),
      })),
    ];
    const file = join(scratchDir(), "dashboard-rules.yaml");
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules }] }));
    const result = checkRules(file);
    expect(result.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(result.status).toBe(0);
  });

  it("picks its Prometheus data source and filters by repository, cluster and target", () => {
    expect(dashboard.schemaVersion).toBe(42);
    expect(variables.find((v) => v.name === "datasource")).toMatchObject({ type: "datasource", query: "prometheus" });
    for (const name of ["cluster", "repo", "target"])
      expect(
        variables.find((v) => v.name === name),
        name,
      ).toMatchObject({ type: "query", includeAll: true, multi: true });
    // Grafana's own ${datasource} syntax, not a template string.
    const source = { type: "prometheus", uid: "$" + "{datasource}" };
    for (const { panel, target } of queries) {
      expect(panel.datasource, panel.title).toEqual(source);
      expect(target.datasource, panel.title).toEqual(source);
    }
    // Per-target series follow all three filters; per-cluster ones follow the cluster.
    for (const { panel, target } of queries) {
      if (/undrift_(drift_objects|last_successful|heals|prunes|heal_fights)/.test(target.expr))
        for (const v of ["repo", "target", "cluster"]) expect(target.expr, panel.title).toContain(`${v}=~"$${v}"`);
      if (/undrift_(scans_total|scan_duration|scan_api)/.test(target.expr))
        expect(target.expr, panel.title).toContain('cluster=~"$cluster"');
    }
    expect(new Set(dashboard.panels.map((p: Panel) => p.id)).size).toBe(dashboard.panels.length);
  });

  it("has the panels an operator looks for", () => {
    expect(panels.map((p) => p.title)).toEqual([
      "Drifted objects",
      "Missing objects",
      "Orphaned objects",
      "Targets out of sync",
      "Out of sync now, per target",
      "Drifted, missing and orphaned objects over time",
      "Scans per hour by result, per cluster",
      "Share of scans that failed, per cluster",
      "Scan duration p50 and p95, per cluster",
      "API requests per scan by verb",
      "Time since each target's last successful scan",
      "Queue depth by state",
      "GitHub requests by status",
      "GitHub rate limit remaining, per installation",
      "Heals, prunes and fights per hour",
      "Over the dashboard's time range",
    ]);
  });
});
