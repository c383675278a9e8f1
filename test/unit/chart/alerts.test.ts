// The chart's PrometheusRule alerts (charts/undrift/files/alerts.yaml), rendered
// by the real helm with the chart's values and judged by the real promtool: the
// rules load, and each alert fires when it should and stays silent when it
// should not, over input series shaped as undrift's processes export them.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkRules, renderAlerts, testRules } from "./chart-tools.ts";

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

function rendered(values: Record<string, unknown> = {}) {
  const { file, error } = renderAlerts(values);
  if (!file) throw new Error(`helm could not render the alerts:\n${error}`);
  const rules: Rule[] = parse(readFileSync(file, "utf8")).groups.flatMap((g: { rules: Rule[] }) => g.rules);
  return { file, rules };
}

const defaults = rendered();

/**
 * An alert as promtool must see it: its labels, and its annotations with Prometheus's templates filled in
 * from those labels and `value` (the alert's value as its humanize function prints it).
 */
function alert(rules: Rule[], name: string, labels: Record<string, string>, value = "") {
  const rule = rules.find((r) => r.alert === name);
  if (!rule) throw new Error(`no alert ${name}`);
  const fill = (text: string) => {
    const filled = text
      .replace(/\{\{ \$labels\.(\w+) \}\}/g, (_, label: string) => labels[label] ?? `<no ${label}>`)
      .replace(/\{\{ \$value \| humanize\w* \}\}/g, value);
    if (filled.includes("{{")) throw new Error(`a template this test does not fill: ${filled}`);
    return filled;
  };
  return {
    exp_labels: { ...rule.labels, ...labels },
    exp_annotations: Object.fromEntries(Object.entries(rule.annotations).map(([k, v]) => [k, fill(v)])),
  };
}

/** An alert_rule_test: at `at`, exactly `alerts` are firing for `name`. */
const expect_ = (name: string, at: string, alerts: object[] = []) => ({
  alertname: name,
  eval_time: at,
  exp_alerts: alerts,
});

function passes(file: string, tests: object[]) {
  const result = testRules(file, tests);
  expect(result.output).toContain("SUCCESS");
  expect(result.status).toBe(0);
}

const shop = { repo: "acme/gitops", target: "shop", cluster: "prod-eu" };
const billing = { repo: "acme/gitops", target: "billing", cluster: "staging" };
const sel = (labels: Record<string, string>) =>
  `{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(", ")}}`;
const series = (metric: string, labels: Record<string, string>, values: string) => ({
  series: `${metric}${sel(labels)}`,
  values,
});
const lastSuccess = "undrift_last_successful_scan_timestamp_seconds";
const worker = { pod: "undrift-worker-0" };

/** What each alert is about: the labels it keeps, which its summary and description must name. */
const named = {
  UndriftTargetScansFailing: ["repo", "target", "cluster"],
  UndriftClusterScansFailing: ["cluster"],
  UndriftTargetNotScanned: ["repo", "target", "cluster"],
  UndriftDriftUnresolved: ["repo", "target", "cluster", "status"],
  UndriftHealFighting: ["repo", "target", "cluster"],
  UndriftHealFailing: ["repo", "target", "cluster"],
  UndriftQueueBacklog: ["queue"],
  UndriftGitHubRateLimitLow: ["installation"],
  UndriftGitHubRequestsFailing: [],
} as const;

describe("the alert rules", { timeout: 120_000 }, () => {
  it("render through helm's tpl into rules promtool accepts, with the chart's defaults and with overrides", () => {
    expect(checkRules(defaults.file)).toMatchObject({ status: 0 });
    const custom = rendered({
      scanFailingFor: "1h30m",
      driftUnresolvedFor: "3d",
      queueBacklog: 5,
      scanStaleFor: "12h",
    });
    expect(checkRules(custom.file)).toMatchObject({ status: 0 });
    const failing = custom.rules.find((r) => r.alert === "UndriftTargetScansFailing")!;
    // 1h30m compared with a time is 5400 seconds; as a range it stays a duration.
    expect(failing.expr).toContain("> 5400");
    expect(failing.expr).toContain("[1h30m]");
    expect(custom.rules.find((r) => r.alert === "UndriftDriftUnresolved")!.for).toBe("3d");
  });

  it("refuse a threshold that is no duration or no number, naming the value", () => {
    expect(renderAlerts({ scanFailingFor: "30 minutes" }).error).toContain(
      'prometheusRule.scanFailingFor must be a duration such as 30m, 24h or 1h30m (got "30 minutes")',
    );
    expect(renderAlerts({ queueBacklog: "lots" }).error).toContain(
      'prometheusRule.queueBacklog must be a whole number (got "lots")',
    );
  });

  it("give every alert a severity, and a summary, description and runbook naming what it is about", () => {
    const operations = readFileSync(resolve(import.meta.dirname, "../../../docs/operations.md"), "utf8");
    for (const rule of defaults.rules) {
      expect(["warning", "critical"]).toContain(rule.labels.severity);
      expect(Object.keys(rule.annotations).sort()).toEqual(["description", "runbook_url", "summary"]);
      // Each label the alert keeps is named in its summary and description.
      expect(Object.keys(named), "every alert says what it names").toContain(rule.alert);
      for (const label of named[rule.alert as keyof typeof named]) {
        expect(rule.annotations.summary, rule.alert).toContain(`{{ $labels.${label} }}`);
        expect(rule.annotations.description, rule.alert).toContain(`{{ $labels.${label} }}`);
      }
      // The runbook is a section of docs/operations.md, and its table has the alert.
      const anchor = rule.annotations.runbook_url?.split("#")[1];
      expect(anchor).toBe(rule.alert.toLowerCase());
      expect(operations).toContain(`### ${rule.alert}\n`);
      expect(operations).toMatch(new RegExp(`^\\| \\[\`${rule.alert}\`\\]\\(#${anchor}\\) \\|`, "m"));
    }
  });

  it("UndriftTargetScansFailing: a target without a successful scan for 30m while its cluster's scans fail", () => {
    const { file, rules } = defaults;
    const name = "UndriftTargetScansFailing";
    passes(file, [
      {
        input_series: [
          // shop last succeeded at 0; from then on every scan of prod-eu fails.
          series(lastSuccess, { ...shop, ...worker }, "0x70"),
          series("undrift_scans_total", { cluster: "prod-eu", result: "failed", ...worker }, "0+1x70"),
          // billing was last scanned at 0 too, but nothing fails on staging: a long schedule, not a failure.
          series(lastSuccess, { ...billing, ...worker }, "0x70"),
          series("undrift_scans_total", { cluster: "staging", result: "failed", ...worker }, "0x70"),
        ],
        alert_rule_test: [
          expect_(name, "25m"),
          expect_(name, "35m", [alert(rules, name, shop, "35m 0s")]),
          expect_(name, "65m", [alert(rules, name, shop, "1h 5m 0s")]),
        ],
      },
    ]);
    // With scanFailingFor: 1h the same failures alert only after an hour.
    const hour = rendered({ scanFailingFor: "1h" });
    passes(hour.file, [
      {
        input_series: [
          series(lastSuccess, { ...shop, ...worker }, "0x70"),
          series("undrift_scans_total", { cluster: "prod-eu", result: "failed", ...worker }, "0+1x70"),
        ],
        alert_rule_test: [expect_(name, "35m"), expect_(name, "65m", [alert(hour.rules, name, shop, "1h 5m 0s")])],
      },
    ]);
  });

  it("UndriftClusterScansFailing: every scan on a cluster failed for 30m, seen without any target's series", () => {
    const { file, rules } = defaults;
    const name = "UndriftClusterScansFailing";
    passes(file, [
      {
        input_series: [
          // prod-us: scans succeed until 10m, then every one fails (retries included).
          series("undrift_scans_total", { cluster: "prod-us", result: "in-sync", ...worker }, "0+1x10 10x50"),
          series("undrift_scans_total", { cluster: "prod-us", result: "failed", ...worker }, "0x10 1+1x49"),
          // prod-ap: some scans fail, others find drift: the cluster is read, one target has a problem.
          series("undrift_scans_total", { cluster: "prod-ap", result: "failed", ...worker }, "0+1x60"),
          series("undrift_scans_total", { cluster: "prod-ap", result: "drifted", ...worker }, "0+1x60"),
        ],
        alert_rule_test: [
          expect_(name, "35m"),
          expect_(name, "45m", [alert(rules, name, { cluster: "prod-us" }, "30")]),
        ],
      },
    ]);
  });

  it("UndriftTargetNotScanned: no successful scan for 6h (scanStaleFor), failing or not", () => {
    const name = "UndriftTargetNotScanned";
    const input_series = [series(lastSuccess, { ...shop, ...worker }, "0x400")];
    passes(defaults.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "359m"),
          expect_(name, "361m", [alert(defaults.rules, name, shop, "6h 1m 0s")]),
        ],
      },
    ]);
    const two = rendered({ scanStaleFor: "2h" });
    passes(two.file, [
      {
        input_series,
        alert_rule_test: [expect_(name, "119m"), expect_(name, "121m", [alert(two.rules, name, shop, "2h 1m 0s")])],
      },
    ]);
  });

  it("UndriftDriftUnresolved: drift at every scan for 24h, across a worker restart; resolved drift is silent", () => {
    const name = "UndriftDriftUnresolved";
    const drifted = { ...shop, status: "drifted" };
    const input_series = [
      // Two objects drifted from 0 on; the worker is replaced at 10h and the new one reports again at 10h20m.
      series("undrift_drift_objects", { ...drifted, pod: "undrift-worker-0" }, "2x600 stale"),
      series("undrift_drift_objects", { ...drifted, pod: "undrift-worker-1" }, "_x620 2x900"),
      // An orphan on billing, pruned at 12h.
      series("undrift_drift_objects", { ...billing, status: "orphaned", ...worker }, "1x720 0x800"),
    ];
    passes(defaults.file, [
      {
        input_series,
        alert_rule_test: [expect_(name, "23h"), expect_(name, "1441m", [alert(defaults.rules, name, drifted, "2")])],
      },
    ]);
    const short = rendered({ driftUnresolvedFor: "2h" });
    passes(short.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "119m"),
          expect_(name, "121m", [
            alert(short.rules, name, drifted, "2"),
            alert(short.rules, name, { ...billing, status: "orphaned" }, "1"),
          ]),
          // The orphan pruned at 12h: only shop's drift is left.
          expect_(name, "13h", [alert(short.rules, name, drifted, "2")]),
        ],
      },
    ]);
  });

  it("UndriftQueueBacklog: more than 100 jobs ready but not taken for 15m, a queue two pods report counted once", () => {
    const name = "UndriftQueueBacklog";
    const scanQueue = "undrift-scan.prod-eu";
    const input_series = ["undrift-web-0", "undrift-worker-0"].flatMap((pod) => [
      series("undrift_queue_jobs", { queue: scanQueue, state: "waiting", pod }, "120x30"),
      series("undrift_queue_jobs", { queue: scanQueue, state: "prioritized", pod }, "5x30"),
      // Retries and the schedulers' next ticks wait on purpose: no backlog.
      series("undrift_queue_jobs", { queue: scanQueue, state: "delayed", pod }, "500x30"),
      // 90 in each pod's report: 180 if they were added up.
      series("undrift_queue_jobs", { queue: "undrift-schedule", state: "waiting", pod }, "60x30"),
      series("undrift_queue_jobs", { queue: "undrift-schedule", state: "prioritized", pod }, "30x30"),
    ]);
    passes(defaults.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "14m"),
          expect_(name, "16m", [alert(defaults.rules, name, { queue: scanQueue }, "125")]),
        ],
      },
    ]);
    const strict = rendered({ queueBacklog: 80, queueBacklogFor: "5m" });
    passes(strict.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "4m"),
          expect_(name, "6m", [
            alert(strict.rules, name, { queue: scanQueue }, "125"),
            alert(strict.rules, name, { queue: "undrift-schedule" }, "90"),
          ]),
        ],
      },
    ]);
  });

  it("UndriftGitHubRateLimitLow: an installation under 500 requests left for 5m, the lowest report counting", () => {
    const name = "UndriftGitHubRateLimitLow";
    const input_series = [
      series("undrift_github_rate_limit_remaining", { installation: "42", pod: "undrift-web-0" }, "600x10 400x20"),
      series("undrift_github_rate_limit_remaining", { installation: "42", pod: "undrift-worker-0" }, "650x30"),
      series("undrift_github_rate_limit_remaining", { installation: "7", pod: "undrift-worker-0" }, "900x30"),
    ];
    passes(defaults.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "10m"),
          expect_(name, "14m"),
          expect_(name, "17m", [alert(defaults.rules, name, { installation: "42" }, "400")]),
        ],
      },
    ]);
    const high = rendered({ rateLimitRemaining: 1000 });
    passes(high.file, [
      {
        input_series,
        alert_rule_test: [
          expect_(name, "6m", [
            alert(high.rules, name, { installation: "42" }, "600"),
            alert(high.rules, name, { installation: "7" }, "900"),
          ]),
        ],
      },
    ]);
  });

  it("UndriftHealFighting and UndriftHealFailing: for an hour after a fight or a failed heal, the first one included", () => {
    const fights = "undrift_heal_fights_total";
    passes(defaults.file, [
      {
        input_series: [
          // shop's first fight since the worker started: the counter appears at 1.
          series(fights, { ...shop, ...worker }, "_x30 1x90"),
          // billing's counter was there, at 0, and went up at 11m.
          series(fights, { ...billing, ...worker }, "0x10 1x110"),
        ],
        alert_rule_test: [
          expect_("UndriftHealFighting", "9m"),
          expect_("UndriftHealFighting", "31m", [
            alert(defaults.rules, "UndriftHealFighting", shop),
            alert(defaults.rules, "UndriftHealFighting", billing),
          ]),
          expect_("UndriftHealFighting", "75m", [alert(defaults.rules, "UndriftHealFighting", shop)]),
          expect_("UndriftHealFighting", "95m"),
        ],
      },
      {
        input_series: [
          series("undrift_heals_total", { ...shop, result: "failed", ...worker }, "_x30 1x60"),
          series("undrift_heals_total", { ...billing, result: "healed", ...worker }, "0+1x90"),
        ],
        alert_rule_test: [
          expect_("UndriftHealFailing", "29m"),
          expect_("UndriftHealFailing", "31m", [alert(defaults.rules, "UndriftHealFailing", shop)]),
        ],
      },
    ]);
  });

  it("UndriftGitHubRequestsFailing: over 10% of GitHub requests get a 5xx, a 401 or no answer for 15m; 404s are answers", () => {
    const name = "UndriftGitHubRequestsFailing";
    const requests = "undrift_github_requests_total";
    passes(defaults.file, [
      {
        input_series: [
          series(requests, { status: "200", ...worker }, "0+10x60"),
          series(requests, { status: "502", ...worker }, "0+5x60"),
        ],
        alert_rule_test: [expect_(name, "10m"), expect_(name, "20m", [alert(defaults.rules, name, {}, "33.33%")])],
      },
      {
        input_series: [
          // A repository without .github/undrift.yml answers 404: nothing is wrong.
          series(requests, { status: "200", ...worker }, "0+10x60"),
          series(requests, { status: "404", ...worker }, "0+100x60"),
        ],
        alert_rule_test: [expect_(name, "20m")],
      },
    ]);
  });
});
