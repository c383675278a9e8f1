// A watched target through the faults of a real cluster and a real Redis: the
// network to the API server cut while the worker's watches are open, and Redis
// restarted under the worker that holds the cluster's watch lease. In each, the
// drift reported before the fault is undone with kubectl while the worker
// cannot see it; once the fault is over it is reported without anyone asking
// for a scan, exactly once: the tracking issue closed with one comment, the same
// check run passed, and no GitHub request the strict mock does not expect.
// A third case cuts the network until the API server no longer has the watch's
// resourceVersion, so that it answers the resumed watch 410 Gone: the watch
// LISTs again and the change is found by comparing that LIST with what it
// held. (The SIGKILLed holder is app-watch-takeover.test.ts.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ClusterSession } from "../../src/live/cluster-session.ts";
import { listObjectsAt } from "../../src/live/list-objects.ts";
import { loadKubeconfig } from "../../src/live/load-kubeconfig.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { type FakeRepo, fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { client, kubeconfigPath } from "../helpers/cluster.ts";
import { type CutProxy, proxyTestCluster } from "../helpers/cut-proxy.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { waitFor } from "../helpers/redis.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";
import { expireWatchWindow } from "../helpers/watch-window.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
let proxy: CutProxy | undefined;
let server: RedisServer | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await server?.stop();
  await s?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  h = s = proxy = server = scratch = undefined;
});

/** A proxy to the test cluster's API server that the test can cut, and a kubeconfig through it. */
async function proxied() {
  scratch = mkdtempSync(join(tmpdir(), "undrift-watch-faults-"));
  const through = join(scratch, "through-proxy.kubeconfig");
  proxy = await proxyTestCluster(through);
  return { proxy, through };
}

/** A warn-mode target scaled by hand, and its commit. */
async function drifted() {
  s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
  await s.applyGit();
  await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
  return { s, commit: await commitRepo(s.repoDir) };
}

/** The first scan, asked for, in a worker that watches: it opens the issue, fails the check and opens the watches. */
async function firstScan(h: AppHarness, gh: FakeRepo, target: string) {
  gh.expectToken();
  gh.expectApp();
  gh.expectHead();
  gh.expectTarball();
  gh.expectIssues({ list: 1, create: 1 });
  gh.expectCheckRuns({ list: 1, create: 1 });
  h.startWorkers(["test"], { watch: true });
  const job = { installationId: gh.installationId, repo: "acme/gitops", target, cluster: "test" };
  await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "comment" } });
  const [first] = await h.settled("test", 1);
  expect(first?.returnvalue).toMatchObject({ summary: `${target}: 1 drifted` });
  expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure" });
}

/** What the scan after the fault must do, and nothing more: close the issue once and pass the same check run. */
async function reportedOnce(h: AppHarness, gh: FakeRepo, target: string, sha: string) {
  const jobs = await h.settled("test", 2);
  expect(jobs[1]?.data.reason).toBe("watch");
  expect(jobs[1]?.returnvalue).toMatchObject({
    summary: `${target}: in sync (1 object)`,
    actions: ["closed issue #1", `updated check run undrift/${target}`],
  });
  expect(gh.state.issues).toHaveLength(1);
  expect(gh.state.issues[0]?.state).toBe("closed");
  expect(gh.state.checkRuns).toHaveLength(1);
  expect(gh.state.checkRuns[0]).toMatchObject({ head_sha: sha, conclusion: "success" });
  await expectScanJobs(h, 2, "scan jobs once the fault was over");
}

/**
 * The scan queue holds `completed` jobs and nothing failed, running or waiting; said with the worker's log when
 * not (a lease lost and taken again queues the adopted targets' scans, for one).
 */
async function expectScanJobs(h: AppHarness, completed: number, what: string) {
  const counts = await h.redis.queues.scan("test").getJobCounts("completed", "failed", "active", "wait", "delayed");
  const log = h.redis.log.entries.map((e) => `${e.level} ${e.message}`).join("\n");
  expect(counts, `${what}; the worker's log:\n${log}`).toEqual({
    completed,
    failed: 0,
    active: 0,
    wait: 0,
    delayed: 0,
  });
}

/** The watched change's scan: the head, the issue closed with a comment, the check run passed. */
function expectUndone(gh: FakeRepo) {
  gh.expectHead();
  gh.expectIssues({ list: 1, comment: 1, update: 1 });
  gh.expectCheckRuns({ list: 1, update: 1 });
}

describe("a watched target", () => {
  it("has a change made while the network to the API server was cut reported once it is back", async () => {
    const { s, commit } = await drifted();
    const { proxy, through } = await proxied();
    h = await openAppHarness({ clusters: { test: { kubeconfig: through, repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    await firstScan(h, gh, s.target);

    // Cut: the worker's watches break and cannot resume; the drift is undone meanwhile, straight to the server.
    await proxy.cut();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    await expectScanJobs(h, 1, "scan jobs while the worker could not see the cluster");
    expectUndone(gh);
    await proxy.restore();
    await reportedOnce(h, gh, s.target, commit.sha);
  });

  // A watch resumed from a resourceVersion the server no longer has is answered 410. The test cluster serves
  // PodTemplates from etcd, not its watch cache, and compacts etcd's history every few seconds
  // (scripts/cluster/cluster.ts), so a PodTemplate's resourceVersion is gone seconds after the cut, as in
  // watch-cache.test.ts; a kind served from the watch cache keeps 75 s of changes at least. The cut lasts up to
  // 20 s, and the worker's watch may then wait 16 s more to retry (its backoff): too near the default timeout on a
  // loaded machine.
  it("has a change made while its watch expired (410 Gone) reported once the watch has LISTed again", {
    timeout: 120_000,
  }, async () => {
    const podTemplate = (image: string) =>
      `apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: a\ntemplate:\n  metadata:\n    labels: {app: a}\n  spec:\n    containers:\n      - {name: c, image: ${image}}\n`;
    s = scenario({ files: { "manifests/a.yaml": podTemplate("busybox") }, target: { mode: "warn" } });
    await s.applyGit();
    const imageOf = (image: string) => JSON.stringify({ template: { spec: { containers: [{ name: "c", image }] } } });
    await kubectl(["-n", s.namespace, "patch", "podtemplate", "a", "--type=merge", "-p", imageOf("nginx")]);
    const admin = client();
    const path = `/api/v1/namespaces/${s.namespace}/podtemplates`;
    const commit = await commitRepo(s.repoDir);
    const { proxy, through } = await proxied();
    h = await openAppHarness({ clusters: { test: { kubeconfig: through, repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    await firstScan(h, gh, s.target);
    const discovery = new ClusterSession(loadKubeconfig({ kubeconfig: kubeconfigPath() }), {
      discoveryCache: undefined,
    });
    const resource = (await discovery.discover()).find("v1", "PodTemplate")!;
    await proxy.cut();
    // Read after the cut, when the worker's watch can no longer move on (no event, no bookmark): a 410 for
    // this resourceVersion means a 410 for the watch's.
    const { resourceVersion } = await listObjectsAt({ client: admin, resource, namespace: s.namespace });
    await kubectl(["-n", s.namespace, "patch", "podtemplate", "a", "--type=merge", "-p", imageOf("busybox")]);
    expect(await expireWatchWindow({ admin, path, resourceVersion })).toBe(true);
    await expectScanJobs(h, 1, "scan jobs while the worker could not see the cluster");
    expectUndone(gh);
    await proxy.restore();
    await reportedOnce(h, gh, s.target, commit.sha);
  });

  it("has a change made while Redis was restarted reported once the worker holds the cluster's watches again", async () => {
    server = await startRedisServer();
    const { s, commit } = await drifted();
    h = await openAppHarness({
      clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
      redisUrl: server.url,
    });
    const gh = fakeRepo({ github, head: commit });
    await firstScan(h, gh, s.target);
    await waitFor(
      "the watched target kept in Redis",
      async () => (await h!.redis.redis.hlen(`${h!.redis.prefix}:watch-targets:test`)) === 1,
    );

    // Redis goes away: the lease cannot be renewed, so the worker stops watching (another may hold it by the
    // time Redis is back). The drift is undone while nobody watches.
    const lost = () => h!.redis.log.entries.some((e) => e.message === "no longer watching cluster test");
    const restarting = server.restart({ downMs: 6000 });
    await waitFor("the worker to stop watching", async () => lost(), 20_000);
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    expectUndone(gh);
    await restarting;
    await reportedOnce(h, gh, s.target, commit.sha);
    expect(h.redis.log.entries.filter((e) => e.message === "watching cluster test")).toHaveLength(2);
  });
});
