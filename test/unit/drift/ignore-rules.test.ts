import { describe, expect, it } from "vitest";
import { JqTimeoutError } from "../../../src/config/jq-runner.ts";
import { loadConfig } from "../../../src/config/load-config.ts";
import { checkIgnoreRules, IgnoreRuleError, rulesFor, stripIgnored } from "../../../src/drift/ignore-rules.ts";
import { Ownership } from "../../../src/drift/managed-fields.ts";
import type { KubeObject } from "../../../src/model/types.ts";
import { compare, containersOf, entryOf, fixture, fixtureCase, jq, policyFor } from "./drift-fixtures.ts";

const sidecarSelector = '.spec.template.spec.containers[] | select(.name == "istio-proxy")';
const issuer = '.metadata.annotations."cert-manager.io/issuer"';

/** The in-sync Deployment, after someone switched its sidecar's image with kubectl edit. */
function sidecarEdited() {
  const pair = fixtureCase("deployment-in-sync");
  containersOf(pair.live)[0]!.image = "docker.io/istio/proxyv2:1.24.3-debug";
  const injector = entryOf(pair.live, "istio-sidecar-injector").fieldsV1!["f:spec"]!["f:template"]!["f:spec"]!;
  delete injector["f:containers"]!['k:{"name":"istio-proxy"}']!["f:image"];
  pair.live.metadata.managedFields!.push({
    manager: "kubectl-edit",
    operation: "Update",
    apiVersion: "apps/v1",
    time: "2026-11-30T10:33:00Z",
    fieldsType: "FieldsV1",
    fieldsV1: {
      "f:spec": { "f:template": { "f:spec": { "f:containers": { 'k:{"name":"istio-proxy"}': { "f:image": {} } } } } },
    },
  });
  return pair;
}

describe("ignoring replicas an autoscaler owns", () => {
  it("reports them without a rule", async () => {
    const { changes } = await compare(fixtureCase("deployment-scaled"));
    expect(changes.map((c) => c.path)).toEqual(["/spec/replicas"]);
  });

  it("ignores them by JSON pointer, for the group and kind the rule names", async () => {
    const ignoreDifferences = [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }];
    const comparison = await compare(fixtureCase("deployment-scaled"), { ignoreDifferences });
    expect(comparison.changes).toEqual([]);
    expect(comparison.needsDryRun).toBe(false);
    expect(comparison.live.spec).not.toHaveProperty("replicas");
  });

  it("ignores them by the manager that owns them", async () => {
    const ignoreDifferences = [{ managedFieldsManagers: ["hpa-controller"] }];
    expect((await compare(fixtureCase("deployment-scaled"), { ignoreDifferences })).changes).toEqual([]);
  });

  it("ignores them in the exact pass too, where applying Git would scale back", async () => {
    const wouldBe = fixture("deployment-scaled-live");
    wouldBe.spec = { ...(wouldBe.spec as object), replicas: 3 };
    const pair = { ...fixtureCase("deployment-scaled"), wouldBe };
    expect((await compare(pair)).changes.map((c) => c.path)).toEqual(["/spec/replicas"]);
    const ignoreDifferences = [{ managedFieldsManagers: ["hpa-controller"] }];
    expect((await compare(pair, { ignoreDifferences })).changes).toEqual([]);
  });

  it.each([
    [{ kind: "StatefulSet", jsonPointers: ["/spec/replicas"] }],
    [{ group: "apps", kind: "Deployment", name: "worker", jsonPointers: ["/spec/replicas"] }],
    [{ kind: "Deployment", namespace: "staging", jsonPointers: ["/spec/replicas"] }],
    [{ managedFieldsManagers: ["kube-controller-manager"] }],
  ])("keeps them when the rule is for other objects or managers: %j", async (rule) => {
    const { changes } = await compare(fixtureCase("deployment-scaled"), { ignoreDifferences: [rule] });
    expect(changes.map((c) => c.path)).toEqual(["/spec/replicas"]);
  });
});

describe("jq path expressions", () => {
  it("a hand-edited injected sidecar is drift without a rule", async () => {
    const { changes } = await compare(sidecarEdited());
    expect(changes).toEqual([
      {
        path: "/spec/template/spec/containers/0/image",
        live: "docker.io/istio/proxyv2:1.24.3-debug",
        manager: "kubectl-edit",
        changedAt: "2026-11-30T10:33:00Z",
      },
    ]);
  });

  it("ignore the container a select() picks, and only it", async () => {
    const pair = sidecarEdited();
    containersOf(pair.live)[1]!.image = "ghcr.io/acme/web:1.4.3-hotfix";
    const ignoreDifferences = [{ group: "apps", kind: "Deployment", jqPathExpressions: [sidecarSelector] }];
    const comparison = await compare(pair, { ignoreDifferences });

    // With the sidecar gone from the comparison, the app container is the first one left.
    expect(comparison.changes.map((c) => [c.path, c.live])).toEqual([
      ["/spec/template/spec/containers/0/image", "ghcr.io/acme/web:1.4.3-hotfix"],
    ]);
    expect(containersOf(comparison.live).map((c) => c.name)).toEqual(["web"]);
  });

  it("ignore every container a select() picks", async () => {
    const pair = sidecarEdited();
    containersOf(pair.live).push({ name: "log-proxy", image: "fluent/fluent-bit:3.2", ports: [], env: [] });
    pair.live.metadata.managedFields!.push({
      manager: "kubectl-patch",
      operation: "Update",
      apiVersion: "apps/v1",
      time: "2026-11-30T10:36:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: {
        "f:spec": {
          "f:template": {
            "f:spec": { "f:containers": { 'k:{"name":"log-proxy"}': { ".": {}, "f:image": {}, "f:name": {} } } },
          },
        },
      },
    });
    expect((await compare(pair)).changes.map((c) => c.path).sort()).toEqual([
      "/spec/template/spec/containers/0/image",
      "/spec/template/spec/containers/2",
    ]);

    const expression = '.spec.template.spec.containers[] | select(.name | endswith("-proxy"))';
    const comparison = await compare(pair, { ignoreDifferences: [{ jqPathExpressions: [expression] }] });
    expect(comparison.changes).toEqual([]);
    expect(containersOf(comparison.live).map((c) => c.name)).toEqual(["web"]);
  });

  it("ignore a quoted annotation key", async () => {
    const pair = fixtureCase("service-issuer");
    const without = await compare(pair);
    expect(without.changes).toEqual([
      {
        path: "/metadata/annotations/cert-manager.io~1issuer",
        desired: "letsencrypt-prod",
        live: "letsencrypt-staging",
        manager: "kubectl-annotate",
        changedAt: "2026-11-30T10:30:12Z",
      },
    ]);

    const ignoreDifferences = [{ kind: "Service", jqPathExpressions: [issuer] }];
    expect((await compare(pair, { ignoreDifferences })).changes).toEqual([]);
  });

  it("an expression that cannot run on an object ignores nothing there and fails nothing", async () => {
    const ignoreDifferences = [{ jqPathExpressions: [sidecarSelector] }];
    const { changes } = await compare(fixtureCase("service-issuer"), { ignoreDifferences });
    expect(changes.map((c) => c.path)).toEqual(["/metadata/annotations/cert-manager.io~1issuer"]);
  });

  it("a syntax error fails up front, naming the rule and the expression", async () => {
    const rules = [
      { kind: "Service", jqPathExpressions: [issuer] },
      { kind: "Deployment", jqPathExpressions: ['.spec.template.spec.containers[] | select(.name == "istio-proxy"'] },
    ];
    const engine = await jq();
    let thrown: unknown;
    try {
      checkIgnoreRules(rules, engine);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IgnoreRuleError);
    expect((thrown as Error).name).toBe("IgnoreRuleError");
    expect((thrown as Error).message).toMatch(/^ignoreDifferences\[1\]\.jqPathExpressions: /);
    expect((thrown as Error).message).toContain('select(.name == "istio-proxy": ');
    expect((thrown as Error).message).toContain("syntax error");
    expect((thrown as Error).message).not.toContain("\n");

    // A target's config already refuses it when parsed, before any policy is built.
    await expect(policyFor({ ignoreDifferences: rules })).rejects.toThrow(/syntax error/);
  });

  it("an expression that never ends on an object fails the scan within its bound, naming object and expression", async () => {
    const engine = await jq();
    const endless = "(.data | until(. == null; .))"; // ends on an empty input, never on a ConfigMap with data
    const object: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "n" },
      data: { a: "1" },
    };
    // It returns (the expression never ends) with the bound's own message, and the engine still works after.
    expect(() =>
      stripIgnored({
        objects: [object],
        rules: [{ jqPathExpressions: [endless] }],
        ownership: Ownership.of(object),
        jq: engine,
      }),
    ).toThrow(
      '.github/undrift.yml: ignoreDifferences: jqPathExpressions: "(.data | until(. == null; .))": jq: did not finish within 1s on ConfigMap/n/c',
    );
    expect(engine.paths({ a: 1 }, ".a")).toEqual([["a"]]);
  });

  it("names the config line and field of an expression that times out during a scan, as the load-time check does", async () => {
    const endless = "(.data | until(. == null; .))";
    const config = loadConfig(
      [
        "targets:",
        "  - name: a",
        "    cluster: c",
        "    path: p",
        "    ignoreDifferences:",
        "      - kind: Service",
        "        jsonPointers: [/spec]",
        "      - kind: ConfigMap",
        "        jqPathExpressions:",
        "          - .data.a",
        `          - ${JSON.stringify(endless)}`,
        "",
      ].join("\n"),
    );
    const object: KubeObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "n" },
      data: { a: "1" },
    };
    let thrown: unknown;
    try {
      stripIgnored({
        objects: [object],
        rules: config.targets[0]!.ignoreDifferences,
        ownership: Ownership.of(object),
        jq: await jq(),
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JqTimeoutError);
    expect((thrown as Error).message).toBe(
      `.github/undrift.yml:11: targets[0].ignoreDifferences[1].jqPathExpressions: ${endless}: jq: did not finish within 1s on ConfigMap/n/c`,
    );
    expect((thrown as JqTimeoutError).issues).toEqual([
      expect.objectContaining({ line: 11, path: "targets[0].ignoreDifferences[1].jqPathExpressions" }),
    ]);
  });

  it("jq keeps working after an expression failed to compile", async () => {
    const engine = await jq();
    expect(() => checkIgnoreRules([{ jqPathExpressions: [".metadata.annotations.["] }], engine)).toThrow(
      /ignoreDifferences\[0\]/,
    );
    expect(engine.paths({ metadata: { annotations: { a: "1" } } }, ".metadata.annotations.a")).toEqual([
      ["metadata", "annotations", "a"],
    ]);
  });

  it("accepts expressions that compile, even those that fail on an empty document", async () => {
    const engine = await jq();
    expect(() =>
      checkIgnoreRules([{ jqPathExpressions: [sidecarSelector, issuer, ".spec.replicas"] }], engine),
    ).not.toThrow();
  });
});

describe("which rules apply to an object", () => {
  const service: KubeObject = { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "shop" } };

  it("matches an omitted or * selector to anything, and the core group as empty", () => {
    const rules = [
      { jsonPointers: ["/a"] },
      { group: "", kind: "Service", jsonPointers: ["/b"] },
      { group: "*", kind: "*", name: "web", namespace: "shop", jsonPointers: ["/c"] },
      { group: "apps", kind: "Service", jsonPointers: ["/d"] },
      { kind: "Service", name: "api", jsonPointers: ["/e"] },
    ];
    expect(rulesFor(rules, service, "").map((r) => r.jsonPointers?.[0])).toEqual(["/a", "/b", "/c"]);
  });
});
