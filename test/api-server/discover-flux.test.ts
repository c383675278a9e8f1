// `discover:` against a real API server with Flux's own CRDs (cluster:up installs them from Flux's module): a
// repository that writes no target gets one per Kustomization whose GitRepository is this repository, rendered as
// kustomize-controller renders it. The live objects are applied as kustomize-controller applies them (server-side,
// field manager kustomize-controller, its labels), written out by hand here, so the test holds undrift's render to
// Flux's rules rather than to itself. (Flux's controllers cannot be built here: see the README "With Flux".)
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { DriftReport } from "../../src/model/types.ts";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { undrift } from "../helpers/run-cli.ts";

const repo = uniqueName("gitops");
const namespace = uniqueName("flux");
const repoDir = mkdtempSync(join(tmpdir(), "undrift-discover-"));
const flux = (name: string) => ({
  "kustomize.toolkit.fluxcd.io/name": name,
  "kustomize.toolkit.fluxcd.io/namespace": namespace,
});

const files: Record<string, string> = {
  ".github/undrift.yml": stringify({ discover: [{ cluster: "test", flux: true }] }),
  // No kustomization.yaml: kustomize-controller generates one listing the folder's manifests.
  "apps/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n",
  "apps/web/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.25
`,
  "paused/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: paused\ndata:\n  level: info\n",
};

const reconcilerObjects = [
  {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "gitops", namespace },
    spec: { interval: "1m", url: `ssh://git@github.com/acme/${repo}.git`, ref: { branch: "main" } },
  },
  {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "other", namespace },
    spec: { interval: "1m", url: "https://github.com/acme/someone-elses", ref: { branch: "main" } },
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
      namePrefix: "prod-",
      images: [{ name: "nginx", newTag: "1.27" }],
      commonMetadata: { labels: { team: "web" } },
    },
  },
  {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "paused", namespace },
    spec: {
      interval: "10m",
      path: "./paused",
      prune: false,
      suspend: true,
      sourceRef: { kind: "GitRepository", name: "gitops" },
      targetNamespace: namespace,
    },
  },
  {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "elsewhere", namespace },
    spec: { interval: "10m", path: "./", prune: true, sourceRef: { kind: "GitRepository", name: "other" } },
  },
];

// What kustomize-controller applies for the two Kustomizations of this repository.
const applied = [
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "prod-settings", namespace, labels: { team: "web", ...flux("apps") } },
    data: { level: "info" },
  },
  {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "prod-web", namespace, labels: { team: "web", ...flux("apps") } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
      },
    },
  },
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "paused", namespace, labels: flux("paused") },
    data: { level: "info" },
  },
];

const apps = `ks-${namespace}-apps`;
const paused = `ks-${namespace}-paused`;
const cli = (...args: string[]) => undrift([...args, "--repo", repoDir, "--kubeconfig", kubeconfigPath()]);
const scanJson = async (target: string) => {
  const { code, stdout, stderr } = await cli("scan", "--target", target, "-o", "json");
  if (code === 2) throw new Error(stderr);
  return { code, report: JSON.parse(stdout) as DriftReport };
};

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

describe("targets discovered from Flux Kustomizations", () => {
  it("undrift targets lists each Kustomization of this repository with where its settings came from", async () => {
    const { code, stdout, stderr } = await cli("targets", "-o", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const listed = (JSON.parse(stdout) as Array<{ origin: { namespace?: string } }>).filter(
      (t) => t.origin.namespace === namespace,
    );
    expect(listed).toEqual([
      {
        name: apps,
        cluster: "test",
        path: "apps",
        render: "kustomize",
        namespace,
        mode: "warn",
        prune: "preview",
        fieldManager: "kustomize-controller",
        tracking: {
          selector: `kustomize.toolkit.fluxcd.io/name=apps,kustomize.toolkit.fluxcd.io/namespace=${namespace}`,
        },
        origin: { from: "flux", kind: "Kustomization", namespace, name: "apps" },
      },
      {
        name: paused,
        cluster: "test",
        path: "paused",
        render: "kustomize",
        namespace,
        mode: "warn",
        prune: false,
        fieldManager: "kustomize-controller",
        tracking: {
          selector: `kustomize.toolkit.fluxcd.io/name=paused,kustomize.toolkit.fluxcd.io/namespace=${namespace}`,
        },
        origin: { from: "flux", kind: "Kustomization", namespace, name: "paused" },
        suspended: true,
      },
    ]);
    const text = await cli("targets");
    expect(text.stdout).toMatch(
      new RegExp(`${paused} +test +paused +warn +flux Kustomization ${namespace}/paused \\(suspended\\)`),
    );
  });

  it("scans a discovered target as kustomize-controller renders it: in sync, then a hand edit is drift", async () => {
    const clean = await scanJson(apps);
    expect(clean.report.resources.map((r) => `${r.kind}/${r.name}:${r.status}`).sort()).toEqual([
      "ConfigMap/prod-settings:in-sync",
      "Deployment/prod-web:in-sync",
    ]);
    expect(clean.code).toBe(0);

    await kubectl(["-n", namespace, "patch", "configmap", "prod-settings", "-p", '{"data":{"level":"debug"}}']);
    const drifted = await scanJson(apps);
    expect(drifted.code).toBe(1);
    const settings = drifted.report.resources.find((r) => r.name === "prod-settings");
    expect(settings).toMatchObject({ status: "drifted" });
    expect(settings?.changes).toMatchObject([
      { path: "/data/level", desired: "info", live: "debug", manager: "kubectl-patch" },
    ]);
  });

  it("codifies a discovered target's drift into the file Flux builds it from, under its name in Git", async () => {
    // Left by the test before: prod-settings has level: debug, made by hand.
    const { code, stdout, stderr } = await cli("codify", "--target", apps, "--allow-dirty", "-o", "json");
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout).filesChanged).toEqual(["apps/settings.yaml"]);
    expect(readFileSync(join(repoDir, "apps/settings.yaml"), "utf8")).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: debug\n",
    );
    expect((await scanJson(apps)).code).toBe(0);
  });

  it("does not codify a field the Kustomization itself sets (its images), where an edit of the file would change nothing", async () => {
    await kubectl(["-n", namespace, "set", "image", "deployment/prod-web", "web=nginx:1.28"]);
    const before = readFileSync(join(repoDir, "apps/web/deployment.yaml"), "utf8");
    const { code, stdout } = await cli("codify", "--target", apps, "--allow-dirty", "-o", "json");
    const result = JSON.parse(stdout);
    expect(result.filesChanged).toEqual([]);
    expect(result.notCodified).toMatchObject([
      {
        kind: "Deployment",
        name: "prod-web",
        reason: "the edit did not make the drift disappear (still differs at /spec/template/spec/containers/0/image)",
      },
    ]);
    expect(code).toBe(1);
    expect(readFileSync(join(repoDir, "apps/web/deployment.yaml"), "utf8")).toBe(before);
    await kubectl(["-n", namespace, "set", "image", "deployment/prod-web", "web=nginx:1.27"]);
  });

  it("scans every discovered target with --all, the suspended one included", async () => {
    const { code, stdout } = await cli("scan", "--all", "-o", "json");
    const reports = JSON.parse(stdout) as DriftReport[];
    const ours = reports.filter((r) => r.target === apps || r.target === paused);
    expect(ours.map((r) => r.target).sort()).toEqual([apps, paused].sort());
    expect(ours.find((r) => r.target === paused)?.summary).toMatchObject({ inSync: 1, drifted: 0, missing: 0 });
    // The report says it follows a suspended Kustomization: drift there is expected, and still reported.
    expect(ours.find((r) => r.target === paused)?.reconciler).toEqual({
      from: "flux",
      kind: "Kustomization",
      namespace,
      name: "paused",
      suspended: true,
    });
    const text = await cli("scan", "--target", paused);
    expect(text.stdout).toContain(
      `Flux Kustomization ${namespace}/paused is suspended: drift is expected until it resumes`,
    );
    // The hand edit was codified by the test before: Git and the cluster agree on both targets.
    expect(code).toBe(0);
  });

  it("says in one line that Argo CD Applications are not read yet, and lists the Flux targets all the same", async () => {
    const config = join(repoDir, ".github/undrift.yml");
    writeFileSync(config, stringify({ discover: [{ cluster: "test", flux: true, argo: true }] }));
    try {
      const { code, stdout, stderr } = await cli("targets");
      expect(code).toBe(0);
      expect(stderr).toBe(
        "undrift: cluster test: argo: Argo CD Applications are not read yet; declare their targets under targets:\n",
      );
      expect(stdout).toContain(apps);
    } finally {
      writeFileSync(config, files[".github/undrift.yml"]!);
    }
  });

  it("names every target there is when asked for one that is neither configured nor discovered", async () => {
    const { code, stderr } = await cli("scan", "--target", `ks-${namespace}-elsewhere`);
    expect(code).toBe(2);
    expect(stderr).toContain(`target "ks-${namespace}-elsewhere" is neither in .github/undrift.yml nor discovered`);
    expect(stderr).toContain(apps);
  });
});
