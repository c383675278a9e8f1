// The ignore plan written into `.github/undrift.yml`: rules added or extended
// in the target's own ignoreDifferences, every comment, blank line, key order
// and list style of the file kept.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../../src/config/load-config.ts";
import type { DriftReport } from "../../../../src/model/types.ts";
import { planIgnoreRule } from "../../../../src/plan/ignore/plan-ignore-rule.ts";
import { editIgnoreRules } from "../../../../src/remediate/ignore/edit-ignore-rules.ts";

const config = `# undrift for the shop
schedule: 15m

targets:
  # the platform's own objects
  - name: infra # prod only
    cluster: prod
    path: infra
    ignoreDifferences:
      # HPA owns replicas
      - group: apps
        kind: Deployment
        name: web
        jsonPointers: [/spec/replicas] # flow style kept

  - name: apps
    cluster: prod
    path: apps   # no rules yet
pullRequests:
  labels: [drift] # for the board
`;

const drifted = (changes: Array<{ path: string; manager: string }>, name = "web"): DriftReport => ({
  target: "x",
  revision: "r",
  summary: { inSync: 0, drifted: 1, missing: 0, orphaned: 0 },
  resources: [{ apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name, status: "drifted", changes }],
  problems: [],
  fingerprint: "f",
});

function edit(target: string, report: DriftReport, path: string, name = "web"): string {
  const parsed = loadConfig(config).targets.find((t) => t.name === target)!;
  const plan = planIgnoreRule({
    report,
    rules: parsed.ignoreDifferences,
    ticks: [{ apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name, path }],
    isController: (m) => !m.startsWith("kubectl"),
  });
  return editIgnoreRules({
    file: ".github/undrift.yml",
    text: config,
    target,
    before: parsed.ignoreDifferences,
    after: plan.rules,
    changed: plan.changed,
  });
}

describe("editIgnoreRules", () => {
  it("extends the rule of the same scope in place, keeping its flow list and every comment", () => {
    const out = edit("infra", drifted([{ path: "/spec/paused", manager: "kubectl-edit" }]), "/spec/paused");
    expect(out).toBe(config.replace("[/spec/replicas] #", "[/spec/replicas, /spec/paused] #"));
  });

  it("appends a new rule after the existing ones, in their block style", () => {
    const out = edit("infra", drifted([{ path: "/spec/x", manager: "hpa" }], "api"), "/spec/x", "api");
    expect(out).toBe(
      config.replace(
        "        jsonPointers: [/spec/replicas] # flow style kept\n",
        [
          "        jsonPointers: [/spec/replicas] # flow style kept",
          "      - group: apps",
          "        kind: Deployment",
          "        name: api",
          "        managedFieldsManagers:",
          "          - hpa",
          "",
        ].join("\n"),
      ),
    );
  });

  it("gives a target without rules its ignoreDifferences, and the result loads with the rule", () => {
    const out = edit("apps", drifted([{ path: "/spec/replicas", manager: "kubectl-scale" }]), "/spec/replicas");
    expect(out).toBe(
      config.replace(
        "    path: apps   # no rules yet\n",
        [
          "    path: apps   # no rules yet",
          "    ignoreDifferences:",
          "      - group: apps",
          "        kind: Deployment",
          "        name: web",
          "        jsonPointers:",
          "          - /spec/replicas",
          "",
        ].join("\n"),
      ),
    );
    expect(loadConfig(out).targets[1]?.ignoreDifferences).toMatchObject([
      { group: "apps", kind: "Deployment", name: "web", jsonPointers: ["/spec/replicas"] },
    ]);
  });

  it("refuses a target the file does not write, naming the file", () => {
    expect(() =>
      editIgnoreRules({
        file: ".github/undrift.yml",
        text: config,
        target: "gone",
        before: [],
        after: [],
        changed: [],
      }),
    ).toThrow('.github/undrift.yml: target "gone" is not written in this file');
  });
});
