// Installing and uninstalling the app, as GitHub delivers it: signed webhooks
// (GitHub's example payloads, moved to acme/gitops) into the app's middleware,
// the config read through Probot's loader, schedulers in real Redis. A target
// whose cluster the registry does not allow is refused in its check run, gets
// no scheduler, and nothing is read from that cluster, even by a stale job.
import { once } from "node:events";
import { readFileSync, renameSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { listScanSchedulers } from "../../src/queue/list-scan-schedulers.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload, installationRepositoriesPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
let trap: Server | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  trap?.close();
  h = s = trap = undefined;
});

/** A TCP server standing in for a cluster that must not be contacted: it counts connections. */
async function clusterTrap(): Promise<{ kubeconfig: string; connections: () => number }> {
  let connections = 0;
  trap = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  trap.listen(0, "127.0.0.1");
  await once(trap, "listening");
  const address = trap.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const kubeconfig = stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      { name: "forbidden", cluster: { server: `https://127.0.0.1:${port}`, "insecure-skip-tls-verify": true } },
    ],
    users: [{ name: "u", user: { token: "not-a-real-token" } }],
    contexts: [{ name: "forbidden", context: { cluster: "forbidden", user: "u" } }],
    "current-context": "forbidden",
  });
  return { kubeconfig, connections: () => connections };
}

describe("installing the app", () => {
  it("schedules every target of the repository and scans each at once; uninstalling removes them", async () => {
    s = scenario({ files: { "manifests/config.yaml": config } });
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/*"] } } });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));

    const delivered = await h.deliver("installation", installationPayload(gh, "created"));
    expect(delivered).toEqual({ status: 200, body: "ok\n" });

    const schedulers = await listScanSchedulers(h.redis.queues);
    expect(schedulers).toEqual([
      expect.objectContaining({
        id: `acme/gitops#${s.target}`,
        every: 15 * 60_000,
        job: { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" },
      }),
    ]);
    const waiting = await h.redis.queues.scan("test").getWaiting();
    expect(waiting.map((job) => job.data)).toEqual([
      { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test", reason: "install" },
    ]);
    // Only the installation token is written; the config costs one read.
    expect(github.requests.map((r) => r.operationId)).toEqual([
      "apps/create-installation-access-token",
      "repos/get-content",
    ]);

    const removed = await h.deliver("installation", installationPayload(gh, "deleted"));
    expect(removed.status).toBe(200);
    expect(await listScanSchedulers(h.redis.queues)).toEqual([]);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.map((a) => [a.event, a.actor])).toEqual([
      ["schedule", "alice"],
      ["unschedule", "alice"],
    ]);
    expect(github.requests).toHaveLength(2);
  });

  it("finds a config named .github/undrift.yaml: schedules its targets and scans with it", async () => {
    s = scenario({ files: { "manifests/config.yaml": config } });
    renameSync(join(s.repoDir, ".github/undrift.yml"), join(s.repoDir, ".github/undrift.yaml"));
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/*"] } } });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yaml"), "utf8"), { file: ".github/undrift.yaml" });

    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => x.id)).toEqual([`acme/gitops#${s.target}`]);
    // `.yml` is looked for first (here and in the owner's `.github` repository, as Probot's loader does), then `.yaml`.
    expect(github.requests.map((r) => r.path)).toEqual([
      `/app/installations/${gh.installationId}/access_tokens`,
      "/repos/acme/gitops/contents/.github/undrift.yml",
      "/repos/acme/.github/contents/.github/undrift.yml",
      "/repos/acme/gitops/contents/.github/undrift.yaml",
    ]);

    // The install scan reads the same file from the snapshot: the target's objects are reported missing.
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["test"]);
    const [scan] = await h.settled("test", 1);
    expect(scan?.failedReason).toBeUndefined();
    expect(gh.state.checkRuns).toEqual([
      expect.objectContaining({
        name: `undrift/${s.target}`,
        head_sha: commit.sha,
        conclusion: "failure",
        output: expect.objectContaining({ title: `${s.target}: 1 missing` }),
      }),
    ]);
  });

  it("removes the schedulers of a repository taken out of the installation, and only those", async () => {
    s = scenario({ files: { "manifests/config.yaml": config } });
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/*"] } } });
    const gh = fakeRepo({ github, head: commit });
    const other = fakeRepo({ github, repo: "other-gitops", head: commit });
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    other.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    const payload = installationPayload(gh, "created");
    (payload.repositories as unknown[]).push({
      id: 7,
      name: "other-gitops",
      full_name: "acme/other-gitops",
      private: true,
    });
    expect((await h.deliver("installation", payload)).status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => x.id).sort()).toEqual([
      `acme/gitops#${s.target}`,
      `acme/other-gitops#${s.target}`,
    ]);

    const removed = await h.deliver("installation_repositories", installationRepositoriesPayload(gh, "removed"));
    expect(removed.status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => x.id)).toEqual([`acme/other-gitops#${s.target}`]);
  });

  it("reads a config that extends the organization's defaults through Probot's loader, the repository's settings winning", async () => {
    s = scenario({ files: { "manifests/config.yaml": config } });
    const own = stringify({
      _extends: "platform-defaults",
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace }],
    });
    s.write({ ".github/undrift.yml": own });
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/*"] } } });
    const gh = fakeRepo({ github, head: commit });
    const defaults = fakeRepo({ github, repo: "platform-defaults", head: commit });
    gh.expectToken();
    gh.expectConfig(own);
    defaults.expectConfig(stringify({ schedule: "30m", targets: [{ name: "theirs", cluster: "x", path: "y" }] }));
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => [x.id, x.every])).toEqual([
      [`acme/gitops#${s.target}`, 30 * 60_000],
    ]);
  });

  it("refuses a target whose cluster the registry does not allow: failing check run, no scheduler, nothing read from that cluster", async () => {
    const refusedTarget = uniqueName("edge");
    s = scenario({ files: { "manifests/config.yaml": config } });
    s.write({
      ".github/undrift.yml": stringify({
        targets: [
          { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace },
          { name: refusedTarget, cluster: "forbidden", path: "manifests", namespace: s.namespace },
        ],
      }),
    });
    const commit = await commitRepo(s.repoDir);
    const forbidden = await clusterTrap();
    const scratch = join(s.repoDir, "..", `${refusedTarget}.kubeconfig`);
    await writeFile(scratch, forbidden.kubeconfig);
    h = await openAppHarness({
      clusters: {
        test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] },
        forbidden: { kubeconfig: scratch, repositories: ["someone-else/*"] },
      },
    });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectHead();
    gh.expectCheckRuns({ list: 1, create: 1 });

    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    expect((await listScanSchedulers(h.redis.queues)).map((x) => x.id)).toEqual([`acme/gitops#${s.target}`]);
    expect(await h.redis.queues.scan("forbidden").count()).toBe(0);
    const [check] = gh.state.checkRuns;
    expect(check).toMatchObject({
      name: `undrift/${refusedTarget}`,
      head_sha: commit.sha,
      conclusion: "failure",
      output: { title: `refused: repository acme/gitops may not use cluster "forbidden"` },
    });
    expect(check?.output.summary).toContain("nothing is read from the cluster");

    // A job queued before the registry changed (a stale scheduler) is refused by the worker too, and reported the same way.
    await enqueueScan({
      queues: h.redis.queues,
      job: {
        installationId: gh.installationId,
        repo: "acme/gitops",
        target: refusedTarget,
        cluster: "forbidden",
        reason: "schedule",
      },
    });
    const before = github.requests.length;
    gh.expectHead();
    gh.expectCheckRuns({ list: 1 });
    h.startWorkers(["forbidden"]);
    const [job] = await h.settled("forbidden", 1);
    expect(job?.failedReason).toBe(`repository acme/gitops may not use cluster "forbidden"`);
    expect(job?.attemptsMade).toBe(1);
    // Refused before the repository is read; the same refusal's check run is read (conditionally), not written again.
    expect(github.writes().length).toBe(2);
    expect(github.requests.slice(before).map((r) => [r.operationId ?? r.origin, r.status])).toEqual([
      ["repos/get", 304],
      ["repos/get-branch", 304],
      ["checks/list-for-ref", 200],
    ]);
    expect(forbidden.connections()).toBe(0);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.filter((a) => a.event === "refusal").map((a) => a.target)).toEqual([refusedTarget, refusedTarget]);
  });
});
