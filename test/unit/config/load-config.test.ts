import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { loadConfig, parseRepoConfig } from "../../../src/config/load-config.ts";

// One string per line, so that a test reads its line numbers off the list.
const lines = (...text: string[]) => `${text.join("\n")}\n`;

function errorOf(text: string): ConfigError {
  try {
    loadConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected loadConfig to throw a ConfigError");
}

const messageOf = (text: string) => errorOf(text).message;

describe("loadConfig: a valid file", () => {
  it("parses the documented example with its values and fills in the rest", () => {
    const config = loadConfig(
      lines(
        "schedule: 1h30m",
        "targets:",
        "  - name: infra",
        "    cluster: prod-eu",
        "    path: ./infra/",
        "    render: kustomize",
        "    namespace: infra",
        "    mode: revert",
        "    prune: true",
        "    fieldManager: kustomize-controller",
        "    humanManagers: ['kubectl*']",
        "    tracking:",
        "      selector: kustomize.toolkit.fluxcd.io/name=apps",
        "    maxPrunePercent: 10",
        "    timeout: 90s",
        "    ignoreDifferences:",
        "      - group: apps",
        "        kind: Deployment",
        "        jsonPointers: [/spec/replicas]",
        "      - managedFieldsManagers: [kube-controller-manager]",
        "    noiseFilters:",
        "      change-cause: false",
        "    rules:",
        "      - match: {kinds: [Role, RoleBinding]}",
        "        mode: heal",
        "  - name: charts",
        "    cluster: staging",
        "    path: charts/web",
        "    prune: preview",
        "    helm:",
        "      valuesFiles: [values.yaml, ../shared/values.yaml]",
        "pullRequests:",
        "  labels: [drift]",
      ),
    );

    expect(config.schedule).toBe("1h30m");
    expect(config.scheduleMs).toBe(90 * 60_000);
    expect(config.pullRequests).toEqual({ labels: ["drift"], reviewers: [] });
    const [infra, charts] = config.targets;
    expect(infra).toMatchObject({
      name: "infra",
      path: "infra",
      render: "kustomize",
      mode: "revert",
      prune: true,
      force: false,
      fieldManager: "kustomize-controller",
      humanManagers: ["kubectl*"],
      tracking: { selector: "kustomize.toolkit.fluxcd.io/name=apps" },
      maxPrunePercent: 10,
      timeout: "90s",
      timeoutMs: 90_000,
      rules: [{ match: { kinds: ["Role", "RoleBinding"] }, mode: "heal" }],
    });
    expect(infra?.ignoreDifferences).toEqual([
      {
        group: "apps",
        kind: "Deployment",
        jsonPointers: ["/spec/replicas"],
        jqPathExpressions: [],
        managedFieldsManagers: [],
      },
      { jsonPointers: [], jqPathExpressions: [], managedFieldsManagers: ["kube-controller-manager"] },
    ]);
    expect(infra?.noiseFilters).toEqual({
      "kubectl-restarted-at": true,
      "deployment-revision": true,
      "last-applied-configuration": true,
      "change-cause": false,
      "namespace-name-label": true,
    });
    expect(charts).toEqual({
      name: "charts",
      cluster: "staging",
      path: "charts/web",
      render: "auto",
      mode: "warn",
      prune: "preview",
      force: false,
      fieldManager: "undrift",
      humanManagers: [
        "kubectl*",
        "k9s",
        "Mozilla",
        "kubernetes-dashboard",
        "dashboard",
        "headlamp",
        "lens",
        "OpenLens",
        "rancher",
      ],
      tracking: { selector: "undrift.dev/target=charts" },
      maxPrunePercent: 30,
      timeout: "5m",
      timeoutMs: 300_000,
      ignoreDifferences: [],
      respectIgnoreDifferences: true,
      noiseFilters: {
        "kubectl-restarted-at": true,
        "deployment-revision": true,
        "last-applied-configuration": true,
        "change-cause": true,
        "namespace-name-label": true,
      },
      helm: { releaseName: "charts", valuesFiles: ["values.yaml", "../shared/values.yaml"] },
      rules: [],
    });
  });

  it("fills the schedule, pull request settings and a tracking selector per target when left out", () => {
    const config = loadConfig(
      lines(
        "targets:",
        "  - {name: infra, cluster: prod-eu, path: infra}",
        "  - {name: apps, cluster: prod-eu, path: .}",
      ),
    );
    expect(config).toMatchObject({ schedule: "15m", scheduleMs: 900_000, pullRequests: { labels: [], reviewers: [] } });
    expect(config.targets.map((target) => [target.path, target.tracking.selector])).toEqual([
      ["infra", "undrift.dev/target=infra"],
      [".", "undrift.dev/target=apps"],
    ]);
  });

  it("keeps _extends as written, for Probot's loader to resolve", () => {
    const config = loadConfig(lines("_extends: acme/.github", "targets: [{name: a, cluster: c, path: a}]"));
    expect(config._extends).toBe("acme/.github");
  });
});

describe("loadConfig: errors name the file, the line and the field", () => {
  it("says which values a field takes, on the value's line", () => {
    const text = lines(
      "targets:",
      "  - name: infra",
      "    cluster: prod-eu",
      "    path: infra",
      "  - name: apps",
      "    cluster: prod-eu",
      "    mode: sometimes",
      "    path: apps",
    );
    expect(messageOf(text)).toBe(".github/undrift.yml:7: targets[1].mode: expected one of warn, codify, revert, heal");
  });

  it("says what type was expected and what the file holds", () => {
    const text = lines("targets:", "  - name: infra", "    cluster: 42", "    path: infra");
    expect(messageOf(text)).toBe(".github/undrift.yml:3: targets[0].cluster: expected a string, got a number");
  });

  it("reports a missing required field on the line of the map that lacks it", () => {
    const text = lines("schedule: 15m", "targets:", "  - name: infra", "    path: infra");
    expect(messageOf(text)).toBe(".github/undrift.yml:3: targets[0].cluster: required field is missing");
  });

  it("catches a typo in a key and suggests the field meant", () => {
    const text = lines("targets:", "  - name: infra", "    cluster: prod-eu", "    path: infra", "    prnue: true");
    expect(messageOf(text)).toBe('.github/undrift.yml:5: targets[0].prnue: unknown field; did you mean "prune"?');
  });

  it("reports a misspelt required field once, as the typo", () => {
    const error = errorOf(lines("targets:", "  - name: infra", "    clustr: prod-eu", "    path: infra"));
    expect(error.message).toBe('.github/undrift.yml:3: targets[0].clustr: unknown field; did you mean "cluster"?');
    expect(error.issues).toHaveLength(1);
  });

  it("lists the built-in noise filters when one is misnamed", () => {
    const text = lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: a",
      "    noiseFilters:",
      "      revision: false",
    );
    expect(messageOf(text)).toBe(
      ".github/undrift.yml:6: targets[0].noiseFilters.revision: unknown field; " +
        "expected one of kubectl-restarted-at, deployment-revision, last-applied-configuration, change-cause, " +
        "namespace-name-label",
    );
  });

  it("reports a duplicate target name on the second one", () => {
    const text = lines(
      "targets:",
      "  - name: infra",
      "    cluster: prod-eu",
      "    path: infra",
      "  - name: infra",
      "    cluster: prod-us",
      "    path: infra",
    );
    expect(messageOf(text)).toBe('.github/undrift.yml:5: targets[1].name: "infra" is already the name of targets[0]');
  });

  it("refuses a path that leaves the repository or is absolute", () => {
    const escaping = lines("targets:", "  - name: a", "    cluster: c", "    path: infra/../../secrets");
    expect(messageOf(escaping)).toBe(
      '.github/undrift.yml:4: targets[0].path: "infra/../../secrets" leaves the repository',
    );
    const absolute = lines("targets:", "  - name: a", "    cluster: c", "    path: /etc");
    expect(messageOf(absolute)).toBe(
      '.github/undrift.yml:4: targets[0].path: expected a path relative to the repository root, got "/etc"',
    );
  });

  it("explains a bad duration and a schedule under a minute", () => {
    expect(messageOf(lines("schedule: soon", "targets: [{name: a, cluster: c, path: a}]"))).toBe(
      '.github/undrift.yml:1: schedule: expected a duration such as 30s, 15m or 1h30m, got "soon"',
    );
    expect(messageOf(lines("schedule: 30s", "targets: [{name: a, cluster: c, path: a}]"))).toBe(
      '.github/undrift.yml:1: schedule: expected at least 1m, got "30s"',
    );
    expect(messageOf(lines("targets:", "  - {name: a, cluster: c, path: a, timeout: 5}"))).toBe(
      ".github/undrift.yml:2: targets[0].timeout: expected a duration such as 30s, 15m or 1h30m, got a number",
    );
  });

  it("explains a tracking selector Kubernetes would reject", () => {
    const text = lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: a",
      "    tracking:",
      "      selector: app=web,=x",
    );
    expect(messageOf(text)).toBe(
      '.github/undrift.yml:6: targets[0].tracking.selector: invalid label selector: "=x" is not one of k=v, k==v, k!=v, k or !k',
    );
  });

  it.each(["!legacy", "env!=dev", "!legacy, env!=dev"])(
    "refuses a tracking selector of negative terms only (%s), which would track most of the cluster",
    (selector) => {
      const text = lines(
        "targets:",
        "  - name: a",
        "    cluster: c",
        "    path: a",
        "    tracking:",
        `      selector: "${selector}"`,
      );
      expect(messageOf(text)).toBe(
        `.github/undrift.yml:6: targets[0].tracking.selector: invalid label selector: "${selector}" has only negative terms (!k, k!=v), which match most of the cluster; a selector needs at least one positive term (k=v or k)`,
      );
    },
  );

  it("accepts negative terms beside a positive one", () => {
    const text = lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: a",
      "    tracking:",
      "      selector: team=x,!legacy",
    );
    expect(loadConfig(text).targets[0]?.tracking.selector).toBe("team=x,!legacy");
  });

  it("refuses an ignoreDifferences rule that ignores nothing", () => {
    const text = lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: a",
      "    ignoreDifferences:",
      "      - kind: Service",
      "        group: ''",
    );
    expect(messageOf(text)).toBe(
      ".github/undrift.yml:6: targets[0].ignoreDifferences[0]: " +
        "needs at least one of jsonPointers, jqPathExpressions, managedFieldsManagers",
    );
  });

  it("requires JSON pointers to start with a slash", () => {
    const text = lines("targets:", "  - name: a", "    cluster: c", "    path: a", "    ignoreDifferences:");
    const withPointer = `${text}      - jsonPointers: [spec/replicas]\n`;
    expect(messageOf(withPointer)).toBe(
      '.github/undrift.yml:6: targets[0].ignoreDifferences[0].jsonPointers[0]: expected a JSON pointer such as /spec/replicas, got "spec/replicas"',
    );
  });

  it("gives YAML's own message and line for a syntax error", () => {
    const text = lines("targets:", "  - name: a", "    cluster: [c", "    path: a");
    expect(messageOf(text)).toMatch(/^\.github\/undrift\.yml:4: Flow sequence in block collection must be/);
    expect(messageOf(text)).not.toContain("\n");
  });

  it("says so when the file is empty or not a map", () => {
    expect(messageOf("# nothing yet\n")).toBe(".github/undrift.yml:1: the file is empty; expected a map of settings");
    expect(messageOf(lines("# targets", "- infra"))).toBe(
      ".github/undrift.yml:2: expected a map of settings at the top level, got a list",
    );
  });

  it("needs at least one target", () => {
    expect(messageOf("schedule: 15m\ntargets: []\n")).toBe(".github/undrift.yml:2: targets: needs at least one target");
  });

  it("names the file it was given", () => {
    expect(() => loadConfig("targets: 1\n", "acme/gitops/.github/undrift.yml")).toThrow(
      "acme/gitops/.github/undrift.yml:1: targets: expected a list, got a number",
    );
  });

  it("keeps every problem, in file order, for the check run", () => {
    const error = errorOf(
      lines(
        "targets:",
        "  - name: Infra",
        "    cluster: prod-eu",
        "    path: infra",
        "    mode: fix",
        "    frce: true",
      ),
    );
    expect(error.name).toBe("ConfigError");
    expect(error.file).toBe(".github/undrift.yml");
    expect(error.issues).toEqual([
      {
        line: 2,
        path: "targets[0].name",
        message: 'expected lowercase letters, digits and "-", starting and ending with a letter or digit, got "Infra"',
      },
      { line: 5, path: "targets[0].mode", message: "expected one of warn, codify, revert, heal" },
      { line: 6, path: "targets[0].frce", message: 'unknown field; did you mean "force"?' },
    ]);
  });
});

describe("parseRepoConfig", () => {
  it("validates config that Probot's loader already parsed, without line numbers", () => {
    expect(parseRepoConfig({ targets: [{ name: "a", cluster: "c", path: "a" }] }).targets[0]?.mode).toBe("warn");
    expect(() => parseRepoConfig({ targets: [{ name: "a", cluster: "c", path: "a", mode: "x" }] })).toThrow(
      ".github/undrift.yml: targets[0].mode: expected one of warn, codify, revert, heal",
    );
  });
});
