// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flux's ${var} syntax is the subject of these strings
// A discovered Flux Kustomization with spec.postBuild against a real API server with Flux's CRDs: its variables
// are read from a ConfigMap and a Secret on the cluster and substituted into the render as kustomize-controller
// does. The live objects are written by hand as the controller would apply them (see discover-flux.test.ts).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { DriftReport } from "../../src/model/types.ts";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { undrift } from "../helpers/run-cli.ts";

const repo = uniqueName("gitops");
const namespace = uniqueName("flux");
const repoDir = mkdtempSync(join(tmpdir(), "undrift-postbuild-"));
const secretValue = "s3cr3t-token-from-the-secret";
const badPortName = "Secret_Port_Name";
const labels = { "kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": namespace };

const files: Record<string, string> = {
  ".github/undrift.yml": stringify({ discover: [{ cluster: "test", flux: true }] }),
  "apps/settings.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  env: \${cluster_env}
  region: \${region:=eu-west-1}
  token: \${token}
  literal: $\${kept}
`,
  // A Secret's value where the API server refuses it (a port name is a DNS label): its refusal quotes it.
  "invalid/service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - name: \${portname}
      port: 80
`,
  "apps/scripts.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: scripts
  annotations:
    kustomize.toolkit.fluxcd.io/substitute: disabled
data:
  run.sh: echo \${HOME}
`,
};

const reconcilerObjects = [
  {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "gitops", namespace },
    spec: { interval: "1m", url: `https://github.com/acme/${repo}`, ref: { branch: "main" } },
  },
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "vars", namespace }, data: { cluster_env: "staging" } },
  {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "secret-vars", namespace },
    data: {
      token: Buffer.from(secretValue).toString("base64"),
      portname: Buffer.from(badPortName).toString("base64"),
    },
  },
  {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "apps", namespace },
    spec: {
      interval: "10m",
      path: "./apps",
      prune: true,
      sourceRef: { kind: "GitRepository", name: "gitops" },
      targetNamespace: namespace,
      postBuild: {
        substitute: { cluster_env: "prod" },
        substituteFrom: [
          { kind: "ConfigMap", name: "vars" },
          { kind: "Secret", name: "secret-vars" },
          { kind: "ConfigMap", name: "absent", optional: true },
        ],
      },
    },
  },
  {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "invalid", namespace },
    spec: {
      interval: "10m",
      path: "./invalid",
      prune: true,
      sourceRef: { kind: "GitRepository", name: "gitops" },
      targetNamespace: namespace,
      postBuild: { substituteFrom: [{ kind: "Secret", name: "secret-vars" }] },
    },
  },
];

// What kustomize-controller applies: the inline substitute over the ConfigMap's cluster_env, the Secret's token.
const applied = [
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "settings", namespace, labels },
    data: { env: "prod", region: "eu-west-1", token: secretValue, literal: "${kept}" },
  },
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "scripts",
      namespace,
      labels,
      annotations: { "kustomize.toolkit.fluxcd.io/substitute": "disabled" },
    },
    data: { "run.sh": "echo ${HOME}" },
  },
  // Applied before the Secret's value came to be there: the port as a person named it.
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: "web",
      namespace,
      labels: { "kustomize.toolkit.fluxcd.io/name": "invalid", "kustomize.toolkit.fluxcd.io/namespace": namespace },
    },
    spec: { selector: { app: "web" }, ports: [{ name: "web", port: 80 }] },
  },
];

const target = `ks-${namespace}-apps`;
const cli = (...args: string[]) => undrift([...args, "--repo", repoDir, "--kubeconfig", kubeconfigPath()]);

beforeAll(async () => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repoDir, path)), { recursive: true });
    writeFileSync(join(repoDir, path), text);
  }
  const git = (...args: string[]) => execFileSync("git", ["-C", repoDir, ...args], { stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("remote", "add", "origin", `https://github.com/acme/${repo}`);
  await kubectl(["create", "namespace", namespace]);
  await kubectl(["apply", "--server-side", "-f", "-"], reconcilerObjects.map((o) => stringify(o)).join("---\n"));
  await kubectl(
    ["apply", "--server-side", "--field-manager=kustomize-controller", "-f", "-"],
    applied.map((o) => stringify(o)).join("---\n"),
  );
});

afterAll(async () => {
  rmSync(repoDir, { recursive: true, force: true });
  await kubectl(["delete", "namespace", namespace, "--wait=false"]);
});

describe("a discovered Kustomization with postBuild substitutions", () => {
  it("is in sync when the cluster holds what Flux substituted, and no output carries the Secret's value", async () => {
    const listed = await cli("targets", "-o", "json");
    expect(listed.stdout).toContain(target);
    const json = await cli("scan", "--target", target, "-o", "json");
    const report = JSON.parse(json.stdout) as DriftReport;
    expect(report.resources.map((r) => `${r.name}:${r.status}`).sort()).toEqual([
      "scripts:in-sync",
      "settings:in-sync",
    ]);
    expect(json.code).toBe(0);
    for (const out of [listed.stdout, listed.stderr, json.stdout, json.stderr]) expect(out).not.toContain(secretValue);
  });

  it("finds drift in a substituted field edited by hand, and masks the one the Secret filled", async () => {
    await kubectl([
      "-n",
      namespace,
      "patch",
      "configmap",
      "settings",
      "-p",
      JSON.stringify({ data: { env: "dev", token: "typed-by-hand" } }),
    ]);
    const json = await cli("scan", "--target", target, "-o", "json");
    const text = await cli("scan", "--target", target);
    const markdown = await cli("scan", "--target", target, "-o", "markdown");
    expect(json.code).toBe(1);
    const settings = (JSON.parse(json.stdout) as DriftReport).resources.find((r) => r.name === "settings");
    expect(settings?.status).toBe("drifted");
    expect(settings?.changes).toMatchObject([
      { path: "/data/env", desired: "prod", live: "dev" },
      { path: "/data/token", desired: "*** (after)", live: "*** (before)" },
    ]);
    for (const out of [json, text, markdown]) {
      expect(out.stdout).not.toContain(secretValue);
      expect(out.stderr).not.toContain(secretValue);
    }
  });

  it("does not quote the Secret's value when the API server refuses the object it was substituted into", async () => {
    const invalid = `ks-${namespace}-invalid`;
    const scan = await cli("scan", "--target", invalid, "-o", "json");
    // A revert's dry-run sends the object: the server refuses it, and its refusal quotes the value it refused.
    const revert = await cli("revert", "--target", invalid, "--dry-run");
    expect(`${revert.stdout}${revert.stderr}`).toMatch(/Invalid value: "\*\*\*"/);
    for (const out of [scan, revert]) {
      expect(out.stdout).not.toContain(badPortName);
      expect(out.stderr).not.toContain(badPortName);
    }
  });

  it("fails the scan in one line naming the Kustomization and field when a required Secret is missing", async () => {
    await kubectl(["-n", namespace, "delete", "secret", "secret-vars"]);
    const { code, stderr } = await cli("scan", "--target", target);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `Kustomization ${namespace}/apps: spec.postBuild.substituteFrom[1]: Secret ${namespace}/secret-vars: not found`,
    );
  });
});
