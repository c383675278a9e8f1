// The worker that holds a cluster's watches killed with SIGKILL (a lost node,
// the OOM killer), and the drift it reported undone with kubectl while no
// worker runs. The worker started next has never scanned the target; when the
// dead worker's lease lapses it takes the cluster's watches, learns the target
// from Redis and scans it (reason `watch`) though nobody asked: the tracking
// issue is closed once and the same check run passes, with no write twice.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { type AppWorkerProcess, startAppWorkerProcess } from "../helpers/app-worker-process.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type GitHubRelay, startGitHubRelay } from "../helpers/github-relay.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { waitFor } from "../helpers/redis.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
let child: AppWorkerProcess | undefined;
let relay: GitHubRelay | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await child?.stop();
  await relay?.close();
  await h?.close();
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  h = s = child = relay = scratch = undefined;
});

describe("the watching worker killed", () => {
  it("has its watches taken over: a change made while no worker ran is reported once, unasked", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    const clusters = { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } };
    h = await openAppHarness({ clusters });
    scratch = await mkdtemp(join(tmpdir(), "undrift-takeover-"));
    const registryFile = join(scratch, "clusters.yaml");
    await writeFile(registryFile, stringify({ clusters }));
    relay = await startGitHubRelay();
    const gh = fakeRepo({ github, head: commit });

    // 1. The child holds the cluster's watches; its scan finds the drift, opens the issue and fails the check.
    gh.expectToken();
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    child = await startAppWorkerProcess({
      redisUrl: h.redis.url,
      prefix: h.redis.prefix,
      cluster: "test",
      registryFile,
      snapshotDir: join(scratch, "snapshots"),
      lockMs: 1000,
      gitHubHost: relay.host,
      gitHubProtocol: "http",
      watchLeaseMs: 1500,
    });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "comment" } });
    const [first] = await h.settled("test", 1);
    expect(first?.returnvalue).toMatchObject({ summary: `${s.target}: 1 drifted` });
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure" });
    const interest = `${h.redis.prefix}:watch-targets:test`;
    await waitFor(
      "the child to keep its watched target in Redis",
      async () => (await h?.redis.redis.hlen(interest)) === 1,
    );

    // 2. Killed; the drift is undone while no worker runs, so no watch sees it.
    child.child.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);

    // 3. A worker that never scanned the target starts with watches; nobody asks for a scan.
    gh.expectToken();
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    h.startWorkers(["test"], { watch: true });
    const jobs = await h.settled("test", 2);
    expect(jobs[1]?.data.reason).toBe("watch");
    expect(jobs[1]?.returnvalue).toMatchObject({
      summary: `${s.target}: in sync (1 object)`,
      actions: ["closed issue #1", `updated check run undrift/${s.target}`],
    });
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.issues[0]?.state).toBe("closed");
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(gh.state.checkRuns[0]).toMatchObject({ head_sha: commit.sha, conclusion: "success" });
    expect(await h.redis.queues.scan("test").getJobCounts("completed", "failed", "active", "wait", "delayed")).toEqual({
      completed: 2,
      failed: 0,
      active: 0,
      wait: 0,
      delayed: 0,
    });
  });
});
