// A merged revert pull request on a target Flux reconciles (discovered from its Kustomization) is handed to Flux:
// the Kustomization is asked to reconcile now, as `flux reconcile kustomization` asks, and undrift applies nothing
// behind its back; the pull request says whom it asked, with what, and what the record approved. The live objects
// are applied as kustomize-controller applies them, by hand (Flux's controllers cannot be built here: README "With
// Flux"), so the drift stays after the merge: what this test shows is the request and the absence of undrift's
// own apply, not Flux's reconciliation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { expectPrComments } from "../helpers/app-github-comments.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { pullRequestClosedPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath, kubectl, uniqueName } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";

const github = useGitHubMock();
const repo = uniqueName("gitops");
const namespace = uniqueName("flux");
const repoDir = mkdtempSync(join(tmpdir(), "undrift-app-discover-revert-"));
const target = `ks-${namespace}-apps`;
const config = stringify({ discover: [{ cluster: "test", flux: true, mode: "revert" }] });

const write = (files: Record<string, string>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repoDir, path)), { recursive: true });
    writeFileSync(join(repoDir, path), text);
  }
};

beforeAll(async () => {
  write({
    ".github/undrift.yml": config,
    "apps/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n",
  });
  const flux = [
    {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "gitops", namespace },
      spec: { interval: "1m", url: `https://github.com/acme/${repo}`, ref: { branch: "main" } },
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
      },
    },
  ];
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
  await kubectl(["create", "namespace", namespace]);
  await kubectl(["apply", "--server-side", "-f", "-"], flux.map((o) => stringify(o)).join("---\n"));
  await kubectl(["apply", "--server-side", "--field-manager=kustomize-controller", "-f", "-"], stringify(settings));
  await kubectl(["-n", namespace, "patch", "configmap", "settings", "-p", '{"data":{"level":"debug"}}']);
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

const level = () => kubectl(["-n", namespace, "get", "configmap", "settings", "-o", "jsonpath={.data.level}"]);
const requestedAt = () =>
  kubectl([
    "-n",
    namespace,
    "get",
    "kustomization.kustomize.toolkit.fluxcd.io",
    "apps",
    "-o",
    "jsonpath={.metadata.annotations.reconcile\\.fluxcd\\.io/requestedAt}",
  ]);

describe("a merged revert pull request on a target Flux reconciles", () => {
  it("asks the Kustomization to reconcile instead of applying, and says so on the pull request", async () => {
    const commit = await commitRepo(repoDir, { owner: "acme", repo });
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: [`acme/${repo}`] } } });
    const gh = fakeRepo({ github, repo, head: commit });

    // The discovered target's scan opens the revert pull request, as a configured target's does.
    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const job = { installationId: gh.installationId, repo: `acme/${repo}`, target, cluster: "test" } as const;
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.returnvalue).toMatchObject({ actions: expect.arrayContaining(["created pull request #1"]) });
    const file = `.undrift/revert/${target}.yaml`;
    expect(gh.state.trees[0]?.tree[0]?.path).toBe(file);

    // Merged: the web process sends the job to the entry's cluster; the worker finds the target there.
    write({ [file]: gh.state.trees[0]?.tree[0]?.content ?? "" });
    const merged = await commitRepo(repoDir, { owner: "acme", repo });
    gh.head = merged;
    const [pr] = gh.state.pulls;
    if (pr) pr.state = "closed";
    gh.expectConfig(config, { ref: merged.sha });
    gh.expectTarball(merged);
    expectPrComments(github, gh, 1, { list: 1, create: 1 });
    const before = await requestedAt();
    const payload = pullRequestClosedPayload(gh, {
      number: 1,
      headRef: `undrift/revert/${target}`,
      merged: true,
      mergeCommitSha: merged.sha,
    });
    expect((await h.deliver("pull_request", payload)).status).toBe(200);
    const merge = (await h.settled("test", 2)).at(-1);
    expect(merge?.failedReason).toBeUndefined();
    expect(merge?.returnvalue).toMatchObject({ outcome: "handed-off", pullRequest: 1, applied: [] });

    // Flux was asked (a new request time on its Kustomization); undrift itself applied nothing.
    expect(before).toBe("");
    const asked = await requestedAt();
    expect(Number.isNaN(Date.parse(asked))).toBe(false);
    expect(await level()).toBe("debug");
    const comment = gh.state.comments[0]?.body ?? "";
    expect(comment).toContain(`undrift asked Flux Kustomization ${namespace}/apps to reconcile now`);
    expect(comment).toContain(`reconcile.fluxcd.io/requestedAt: ${asked}`);
    expect(comment).toContain(`- \`v1 ConfigMap ${namespace}/settings\``);
  });
});
