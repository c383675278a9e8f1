// Redis restarted under a running app scan (a rolling restart that keeps the
// data): the codify job that was waiting on GitHub when Redis went away keeps
// its lock, finishes once it is back, and GitHub sees one pull request and one
// check run, with no retry and no second try of the job. The restart is of a
// private redis-server, so the shared Redis of the other tests is not touched.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { holdReply } from "../helpers/github-hold.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { waitFor } from "../helpers/redis.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
let server: RedisServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.stop();
  await s?.cleanup();
  h = s = server = undefined;
});

describe("Redis restarted during an app scan", () => {
  it("completes the codify scan once: one pull request, one check run, and the next scan writes nothing", async () => {
    server = await startRedisServer();
    s = scenario({ files: { "manifests/web.yaml": web } });
    s.write({
      ".github/undrift.yml": stringify({
        targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, mode: "codify" }],
      }),
    });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({
      clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
      redisUrl: server.url,
    });
    // GitHub opens the pull request, and its answer waits until Redis has been restarted.
    const held = holdReply(github, (call) => call.method === "POST" && call.path.endsWith("/pulls"));
    const gh = fakeRepo({ github: held.github, head: commit });

    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    const id = await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "comment" } });
    h.startWorkers(["test"]);
    await held.reached;
    const queue = h.redis.queues.scan("test");
    expect(await queue.getJobState(id)).toBe("active");

    await server.restart({ downMs: 1000 });
    await waitFor(
      "the app's Redis connections to be back",
      () => h!.redis.redis.status === "ready" && h!.redis.workerConnection.status === "ready",
    );
    held.release();
    const [done] = await h.settled("test", 1);

    expect(done?.id).toBe(id);
    expect(done?.failedReason).toBeUndefined();
    expect(done?.returnvalue).toMatchObject({
      actions: ["created pull request #1", `created check run undrift/${s.target}`],
    });
    // One try, never handed out again.
    expect(done?.attemptsMade).toBe(1);
    expect(done?.stalledCounter).toBe(0);
    expect(await queue.getJobCounts("completed", "failed", "active", "wait", "delayed")).toEqual({
      completed: 1,
      failed: 0,
      active: 0,
      wait: 0,
      delayed: 0,
    });
    expect(github.writes().map((r) => r.operationId)).toEqual([
      "apps/create-installation-access-token",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "checks/create",
    ]);
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.checkRuns).toHaveLength(1);

    // The ETags saved before the restart still answer, and the same drift opens no second pull request.
    const mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    await h.settled("test", 2);
    expect(github.requests.slice(mark).map((r) => [r.operationId, r.status])).toEqual([
      ["repos/get", 304],
      ["repos/get-branch", 304],
      ["pulls/list", 200],
      ["checks/list-for-ref", 200],
    ]);
    expect(gh.state.pulls).toHaveLength(1);
  });
});
