// A repository whose config only says `discover:`, installed as GitHub delivers it: the web process schedules
// the entry's tick (it has no cluster credentials to read Flux with), the tick's worker reads the cluster's
// Flux Kustomizations (Flux's own CRDs, installed by cluster:up) and queues a scan of each one whose
// GitRepository is this repository, and that scan reports on GitHub like a configured target's: a check run
// named after the discovered target, a tracking issue for drift made with kubectl. The live objects are applied
// as kustomize-controller applies them (server-side, its field manager and labels), written out by hand, since
// Flux's controllers cannot be built here (README "With Flux").
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { discoveryTarget } from "../../src/config/discovery-target.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { processDiscovery } from "../../src/worker/process-discovery.ts";
import { processScan } from "../../src/worker/process-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload, pushPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const repo = uniqueName("gitops");
const namespace = uniqueName("flux");
const repoDir = mkdtempSync(join(tmpdir(), "undrift-app-discover-"));
const target = `ks-${namespace}-apps`;
const config = stringify({ discover: [{ cluster: "test", flux: true }] });

const files: Record<string, string> = {
  ".github/undrift.yml": config,
  // No kustomization.yaml: kustomize-controller generates one listing the folder's manifests.
  "apps/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n",
};

const reconcilerObjects = (kustomizations: string[]) => [
  {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "gitops", namespace },
    spec: { interval: "1m", url: `https://github.com/acme/${repo}.git`, ref: { branch: "main" } },
  },
  ...kustomizations.map((name) => ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace },
    spec: {
      interval: "10m",
      path: "./apps",
      prune: true,
      sourceRef: { kind: "GitRepository", name: "gitops" },
      targetNamespace: namespace,
    },
  })),
];

// What kustomize-controller applies for Kustomization `apps`.
const settings = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: "settings",
    namespace,
    labels: { "kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": namespace },
  },
  data: { level: "info" },
};

beforeAll(async () => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repoDir, path)), { recursive: true });
    writeFileSync(join(repoDir, path), text);
  }
  await kubectl(["create", "namespace", namespace]);
  await kubectl(
    ["apply", "--server-side", "-f", "-"],
    reconcilerObjects(["apps"])
      .map((o) => stringify(o))
      .join("---\n"),
  );
  await kubectl(["apply", "--server-side", "--field-manager=kustomize-controller", "-f", "-"], stringify(settings));
});

afterAll(async () => {
  rmSync(repoDir, { recursive: true, force: true });
  await kubectl(["delete", "namespace", namespace, "--wait=false"]);
});

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("targets discovered by the app", () => {
  it("schedules the discover: entry, scans each Kustomization of the repository as a target, and reports its drift", async () => {
    const commit = await commitRepo(repoDir, { owner: "acme", repo });
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: [`acme/${repo}`] } } });
    const gh = fakeRepo({ github, repo, head: commit });

    // 1. Installed: the web process schedules the entry's tick and queues it at once; it reads no cluster.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    const schedulers = await h.redis.queues.schedule.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toEqual([`acme/${repo}#${discoveryTarget("test")}`]);

    // 2. The tick's worker reads Flux's objects and queues the scan of the one target they name, which runs at once:
    // 3. in sync, as kustomize-controller applied it; a passing check run named after the target.
    gh.expectHead(2);
    gh.expectTarball();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["test"]);
    const [tick, scan] = await h.settled("test", 2);
    expect(tick?.failedReason).toBeUndefined();
    expect(tick?.returnvalue).toEqual({
      outcome: "discovered",
      revision: commit.sha,
      actions: [`queued a scan of ${target}`],
    });
    expect(scan?.failedReason).toBeUndefined();
    expect(scan?.data).toMatchObject({ target, cluster: "test", reason: "install" });
    expect(scan?.returnvalue).toMatchObject({ outcome: "scanned", summary: `${target}: in sync (1 object)` });
    expect(gh.state.checkRuns).toMatchObject([{ name: `undrift/${target}`, conclusion: "success" }]);

    // 4. Drift made by hand, and the next tick: the discovered target's scan finds it and opens its tracking issue.
    await kubectl(["-n", namespace, "patch", "configmap", "settings", "-p", '{"data":{"level":"debug"}}']);
    gh.expectHead(2);
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...tick!.data, reason: "schedule" } });
    const jobs = await h.settled("test", 4);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({
      outcome: "scanned",
      summary: `${target}: 1 drifted`,
      actions: ["created issue #1", `updated check run undrift/${target}`],
    });
    expect(gh.state.issues[0]).toMatchObject({ title: `undrift: ${target} has drifted from Git on test` });
    expect(gh.state.issues[0]?.body).toContain("/data/level");
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.filter((e) => e.event === "discover").map((e) => e.outcome)).toEqual([
      `queued scans of ${target}`,
      `queued scans of ${target}`,
    ]);
  });

  it("ends a discovered target's scan quietly once its Kustomization is gone, and queues a new one's at the next tick", async () => {
    const commit = await commitRepo(repoDir, { owner: "acme", repo });
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: [`acme/${repo}`] } } });
    const gh = fakeRepo({ github, repo, head: commit });
    // The worker's steps called in this process, so that the scans a tick queues wait in the queue to be read.
    const deps = {
      probot: h.probot,
      queues: h.redis.queues,
      registry: h.registry,
      snapshotDir: h.snapshotDir,
      log: h.redis.log,
    };
    const context = { jobId: "1", attempt: 1, signal: new AbortController().signal };
    const job = {
      installationId: gh.installationId,
      repo: `acme/${repo}`,
      cluster: "test",
      reason: "schedule",
    } as const;

    // A scan queued for a Kustomization that no longer exists (a watch or a comment queued it): nothing to scan.
    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();
    const gone = await processScan({ deps, job: { ...job, target: `ks-${namespace}-gone` }, context });
    expect(gone).toEqual({ outcome: "target-gone", revision: commit.sha, actions: [] });

    // A second Kustomization of the repository appears: the next tick queues both.
    await kubectl(
      ["apply", "--server-side", "-f", "-"],
      reconcilerObjects(["apps", "more"])
        .map((o) => stringify(o))
        .join("---\n"),
    );
    gh.expectHead();
    const tick = await processDiscovery({ deps, job: { ...job, target: discoveryTarget("test") }, context });
    expect(tick).toMatchObject({
      outcome: "discovered",
      actions: [`queued a scan of ${target}`, `queued a scan of ks-${namespace}-more`],
    });
    const queued = await h.redis.queues.scan("test").getWaiting();
    expect(queued.map((q) => [q.data.target, q.data.reason]).sort()).toEqual([
      [target, "schedule"],
      [`ks-${namespace}-more`, "schedule"],
    ]);
  });

  it("queues the entry's tick at a pushed commit, since only a worker can tell which discovered targets it touches", async () => {
    const commit = await commitRepo(repoDir, { owner: "acme", repo });
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: [`acme/${repo}`] } } });
    const gh = fakeRepo({ github, repo, head: commit });
    const after = "c".repeat(40);
    gh.expectToken();
    gh.expectConfig(config, { ref: after });
    const push = pushPayload(gh, { before: commit.sha, after, modified: ["apps/settings.yaml"] });
    expect((await h.deliver("push", push)).status).toBe(200);
    const jobs = await h.redis.queues.scan("test").getWaiting();
    expect(jobs.map((job) => [job.data.target, job.data.reason, job.data.revision])).toEqual([
      [discoveryTarget("test"), "push", after],
    ]);
  });
});
