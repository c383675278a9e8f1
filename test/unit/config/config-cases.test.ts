// The careless and hostile config files tried for issue 12, each with the one line it gets: file, line
// (where the text has one) and field, never the text of a value that may be a credential, never a crash.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { loadConfig } from "../../../src/config/load-config.ts";

const t = (extra: string) => `targets:\n  - name: infra\n    cluster: prod\n    path: apps\n${extra}`;

const cases: Array<[string, string, string]> = [
  ["empty file", "", ".github/undrift.yml:1: the file is empty; expected a map of settings"],
  ["a list, not a map", "- a\n- b\n", ".github/undrift.yml:1: expected a map of settings at the top level, got a list"],
  ["a scalar", "hello\n", ".github/undrift.yml:1: expected a map of settings at the top level, got a string"],
  ["no targets", "schedule: 15m\n", ".github/undrift.yml:1: targets: required field is missing"],
  ["targets not a list", "targets: infra\n", ".github/undrift.yml:1: targets: expected a list, got a string"],
  [
    "target without name",
    "targets:\n  - cluster: prod\n    path: apps\n",
    ".github/undrift.yml:2: targets[0].name: required field is missing",
  ],
  [
    "name with capitals",
    "targets:\n  - name: Infra\n    cluster: prod\n    path: apps\n",
    '.github/undrift.yml:2: targets[0].name: expected lowercase letters, digits and "-", starting and ending with a letter or digit, got "Infra"',
  ],
  [
    "duplicate target names",
    t("  - name: infra\n    cluster: prod\n    path: other\n"),
    '.github/undrift.yml:5: targets[1].name: "infra" is already the name of targets[0]',
  ],
  [
    "unknown top-level key (typo)",
    `schedul: 15m\n${t("")}`,
    '.github/undrift.yml:1: schedul: unknown field; did you mean "schedule"?',
  ],
  [
    "unknown target key (typo)",
    t("    namespce: shop\n"),
    '.github/undrift.yml:5: targets[0].namespce: unknown field; did you mean "namespace"?',
  ],
  [
    "mode not in the list",
    t("    mode: fix\n"),
    ".github/undrift.yml:5: targets[0].mode: expected one of warn, codify, revert, heal",
  ],
  [
    "prune not a boolean or preview",
    t("    prune: sometimes\n"),
    ".github/undrift.yml:5: targets[0].prune: expected one of false, preview, true",
  ],
  [
    "schedule not a duration",
    `schedule: often\n${t("")}`,
    '.github/undrift.yml:1: schedule: expected a duration such as 30s, 15m or 1h30m, got "often"',
  ],
  [
    "schedule too long",
    `schedule: 999999999999999999999h\n${t("")}`,
    '.github/undrift.yml:1: schedule: expected at most 168h, got "999999999999999999999h"',
  ],
  ["schedule too short", `schedule: 1s\n${t("")}`, '.github/undrift.yml:1: schedule: expected at least 1m, got "1s"'],
  [
    "timeout over 24h",
    t("    timeout: 48h\n"),
    '.github/undrift.yml:5: targets[0].timeout: expected at most 24h, got "48h"',
  ],
  [
    "maxPrunePercent .nan",
    t("    maxPrunePercent: .nan\n"),
    ".github/undrift.yml:5: targets[0].maxPrunePercent: expected a number, got NaN (.nan)",
  ],
  [
    "maxPrunePercent 150",
    t("    maxPrunePercent: 150\n"),
    ".github/undrift.yml:5: targets[0].maxPrunePercent: expected at most 100",
  ],
  [
    "maxPrunePercent a string",
    t("    maxPrunePercent: thirty\n"),
    ".github/undrift.yml:5: targets[0].maxPrunePercent: expected a number, got a string",
  ],
  [
    "fieldManager of 5 MB",
    t(`    fieldManager: ${"x".repeat(5_000_000)}\n`),
    ".github/undrift.yml: 5000077 bytes; the limit is 1048576 bytes",
  ],
  [
    "absolute path",
    "targets:\n  - name: infra\n    cluster: prod\n    path: /etc\n",
    '.github/undrift.yml:4: targets[0].path: expected a path relative to the repository root, got "/etc"',
  ],
  [
    "path escaping with ..",
    "targets:\n  - name: infra\n    cluster: prod\n    path: ../../etc\n",
    '.github/undrift.yml:4: targets[0].path: "../../etc" leaves the repository',
  ],
  [
    "credentials in the cluster field",
    "targets:\n  - name: infra\n    cluster: https://user:pw@10.0.0.1\n    path: apps\n",
    ".github/undrift.yml:3: targets[0].cluster: expected the name of a cluster in the server's registry, not an address (which may carry credentials)",
  ],
  [
    "jsonPointer for jsonPointers",
    t("    ignoreDifferences:\n      - kind: Deployment\n        jsonPointer: [/spec/replicas]\n"),
    '.github/undrift.yml:7: targets[0].ignoreDifferences[0].jsonPointer: unknown field; did you mean "jsonPointers"?',
  ],
  [
    "jsonPointers not starting with /",
    t("    ignoreDifferences:\n      - kind: Deployment\n        jsonPointers: [spec/replicas]\n"),
    '.github/undrift.yml:7: targets[0].ignoreDifferences[0].jsonPointers[0]: expected a JSON pointer such as /spec/replicas, got "spec/replicas"',
  ],
  [
    "invalid jq",
    t("    ignoreDifferences:\n      - kind: Deployment\n        jqPathExpressions: ['.spec.[']\n"),
    ".github/undrift.yml:7: targets[0].ignoreDifferences[0].jqPathExpressions: .spec.[: jq: syntax error, unexpected INVALID_CHARACTER at <top-level>, line 1; 1 compile error",
  ],
  [
    "helm values file outside",
    t("    helm:\n      valuesFiles: [../../secrets.yaml]\n"),
    '.github/undrift.yml:6: targets[0].helm.valuesFiles[0]: "../../secrets.yaml" leaves the repository',
  ],
  ["tab indentation", "targets:\n\t- name: infra\n", ".github/undrift.yml:2: Tabs are not allowed as indentation"],
  [
    "unclosed flow map",
    "targets: [{name: infra, cluster: prod\n",
    ".github/undrift.yml:2: Flow map in block collection must be sufficiently indented and end with a }",
  ],
  [
    "two documents",
    `${t("")}---\nschedule: 1m\n`,
    ".github/undrift.yml:5: a second YAML document starts here; the config is one document (remove the `---` or split the file)",
  ],
  [
    "5,000 nested flow maps",
    `a: ${"{a: ".repeat(5000)}1${"}".repeat(5000)}\n`,
    ".github/undrift.yml:1: nested more than 64 maps or lists deep (the limit)",
  ],
  [
    "alias bomb",
    "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
    ".github/undrift.yml:1: Excessive alias count indicates a resource exhaustion attack",
  ],
  [
    "2 MB file",
    `# ${"x".repeat(2_000_000)}\n${t("")}`,
    ".github/undrift.yml: 2000061 bytes; the limit is 1048576 bytes",
  ],
  [
    "humanManagers not a list",
    t("    humanManagers: kubectl\n"),
    ".github/undrift.yml:5: targets[0].humanManagers: expected a list, got a string",
  ],
];

describe("loadConfig on careless and hostile files", () => {
  it.each(cases)("%s", (_, text, message) => {
    let thrown: unknown;
    try {
      loadConfig(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toBe(message);
    expect(message).not.toContain("\n");
  });

  it("never repeats a cluster address, which may carry a password", () => {
    expect(() => loadConfig(t("").replace("cluster: prod", "cluster: https://admin:hunter2@10.0.0.1"))).toThrow(
      /^(?!.*hunter2).*targets\[0\]\.cluster: expected the name of a cluster/,
    );
  });
});
