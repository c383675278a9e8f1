// The real helm and promtool over the chart's alert and dashboard files: the
// alerts rendered through Helm's tpl as the chart renders them, promtool's
// check and unit tests, and the series undrift's own registry exposes.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { binaries } from "../../../scripts/cluster/build.ts";

export const chartDir = resolve(import.meta.dirname, "../../../charts/undrift");
export const chartFiles = join(chartDir, "files");

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests, read field by field.
export type Obj = Record<string, any>;

/** The chart's prometheusRule values and their defaults (charts/undrift/values.yaml). */
export const DEFAULT_RULE_VALUES = {
  scanFailingFor: "30m",
  driftUnresolvedFor: "24h",
  queueBacklog: 100,
  queueBacklogFor: "15m",
  rateLimitRemaining: 500,
};

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder removed after the file's tests. */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "undrift-chart-test-"));
  scratch.push(dir);
  return dir;
}

function tool(name: "helm" | "promtool"): string {
  const path = binaries()[name];
  if (!existsSync(path)) throw new Error(`${path} is missing: \`npm run cluster:up\` builds it`);
  return path;
}

/** Runs helm or promtool; its exit code with what it printed. */
export function run(name: "helm" | "promtool", args: string[], cwd?: string) {
  const result = spawnSync(tool(name), args, { cwd, encoding: "utf8" });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The objects `helm template r` renders from the chart with `values` over its defaults; throws with helm's error. */
export function renderChart(values: Record<string, unknown>): Obj[] {
  const file = join(scratchDir(), "values.yaml");
  writeFileSync(file, stringify(values));
  const rendered = run("helm", ["template", "r", chartDir, "-f", file]);
  if (rendered.status !== 0) throw new Error(`helm template failed: ${rendered.output}`);
  return parseAllDocuments(rendered.output)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
}

/**
 * files/alerts.yaml rendered by the real helm the way the chart renders it (tpl with the chart's values),
 * under `groups:` so the output is a Prometheus rule file. Returns the file's path, or helm's error.
 */
export function renderAlerts(values: Record<string, unknown> = {}): { file?: string; error?: string } {
  const dir = scratchDir();
  const chart = join(dir, "chart");
  mkdirSync(join(chart, "templates"), { recursive: true });
  mkdirSync(join(chart, "files"));
  copyFileSync(join(chartFiles, "alerts.yaml"), join(chart, "files", "alerts.yaml"));
  writeFileSync(join(chart, "Chart.yaml"), "apiVersion: v2\nname: alerts-scratch\nversion: 0.1.0\n");
  writeFileSync(join(chart, "values.yaml"), stringify({ prometheusRule: DEFAULT_RULE_VALUES }));
  writeFileSync(join(chart, "templates", "rules.yaml"), 'groups:\n{{ tpl (.Files.Get "files/alerts.yaml") . }}\n');
  writeFileSync(join(dir, "overrides.yaml"), stringify({ prometheusRule: values }));
  const rendered = run("helm", ["template", "scratch", chart, "-f", join(dir, "overrides.yaml")]);
  if (rendered.status !== 0) return { error: rendered.output };
  const file = join(dir, "rules.yaml");
  writeFileSync(file, rendered.output);
  return { file };
}

/** `promtool check rules` on `file`. */
export function checkRules(file: string) {
  return run("promtool", ["check", "rules", file]);
}

/** `promtool test rules` of `tests` (promtool's test file, as an object) against the rule file `rules`. */
export function testRules(rules: string, tests: object[]) {
  const dir = scratchDir();
  const file = join(dir, "alerts.test.yaml");
  writeFileSync(file, stringify({ rule_files: [rules], evaluation_interval: "1m", tests }));
  return run("promtool", ["test", "rules", file]);
}

/** Series name -> its label names, from a Prometheus text exposition. */
export function exposedSeries(text: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    const [, name, inside = ""] = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line) ?? [];
    if (!name) continue;
    const labels = series.get(name) ?? new Set<string>();
    for (const [, label = ""] of inside.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) labels.add(label);
    series.set(name, labels);
  }
  return series;
}

/** The undrift series a PromQL expression (or a Grafana label_values query) reads. */
export function metricsIn(expr: string): string[] {
  return [...new Set(expr.match(/\bundrift_[a-z0-9_]+\b/g) ?? [])];
}

/** The label names an expression matches on, groups by, or joins on. */
export function labelsIn(expr: string): string[] {
  const labels = new Set<string>();
  for (const [, inside = ""] of expr.matchAll(/\{([^}]*)\}/g))
    for (const [, label = ""] of inside.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) labels.add(label);
  for (const [, list = ""] of expr.matchAll(/\b(?:by|without|on|ignoring)\s*\(([^)]*)\)/g))
    for (const label of list.split(",")) if (label.trim()) labels.add(label.trim());
  for (const [, label = ""] of expr.matchAll(/label_values\([^,]*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)/g))
    labels.add(label);
  return [...labels];
}

/**
 * What is wrong with `expr` against the exposed series: a metric undrift does not expose, or a label none
 * of the expression's metrics has (`scrapeLabels` are the ones Prometheus adds, such as pod).
 */
export function unknownNames(expr: string, series: Map<string, Set<string>>, scrapeLabels: string[] = []): string[] {
  const metrics = metricsIn(expr);
  const problems = metrics.filter((name) => !series.has(name)).map((name) => `metric ${name}`);
  const known = new Set([...scrapeLabels, ...metrics.flatMap((name) => [...(series.get(name) ?? [])])]);
  return [
    ...problems,
    ...labelsIn(expr)
      .filter((label) => !known.has(label))
      .map((label) => `label ${label}`),
  ];
}
