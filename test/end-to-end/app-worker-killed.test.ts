// An app worker killed in the middle of a warn-mode scan (SIGKILL: a lost node,
// the OOM killer). The worker runs in its own process and reaches GitHub
// through the test's relay; it is killed after GitHub has created the check
// run and before the answer reaches it. Its lock lapses, the app's worker in
// this process takes the scan up as stalled and completes it once, and GitHub
// ends with one tracking issue and one check run: the second try finds what the
// first wrote instead of writing it again.
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
import { holdReply } from "../helpers/github-hold.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type GitHubRelay, startGitHubRelay } from "../helpers/github-relay.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
let child: AppWorkerProcess | undefined;
let relay: GitHubRelay | undefined;
let scratch: string | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  await child?.stop();
  // A reply still held would keep the mock's check waiting.
  release?.();
  await relay?.close();
  await h?.close();
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  h = s = child = relay = scratch = release = undefined;
});

describe("an app worker killed mid-scan", () => {
  it("has its warn scan completed once by another worker: one tracking issue, one check run", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    const clusters = { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } };
    h = await openAppHarness({ clusters });
    scratch = await mkdtemp(join(tmpdir(), "undrift-killed-"));
    const registryFile = join(scratch, "clusters.yaml");
    await writeFile(registryFile, stringify({ clusters }));
    relay = await startGitHubRelay();
    // GitHub creates the check run; the worker that asked is killed before it hears back.
    const held = holdReply(github, (call) => call.method === "POST" && call.path.endsWith("/check-runs"));
    release = held.release;
    const gh = fakeRepo({ github: held.github, head: commit });

    // Each worker process gets its own token, bot login, head and snapshot (on its own disk).
    gh.expectToken(2);
    gh.expectApp();
    gh.expectApp();
    gh.expectHead(2);
    gh.expectTarball();
    gh.expectTarball();
    gh.expectIssues({ list: 2, create: 1 });
    gh.expectCheckRuns({ list: 2, create: 1 });
    child = await startAppWorkerProcess({
      redisUrl: h.redis.url,
      prefix: h.redis.prefix,
      cluster: "test",
      registryFile,
      snapshotDir: join(scratch, "snapshots"),
      lockMs: 1000,
      gitHubHost: relay.host,
      gitHubProtocol: "http",
    });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    const id = await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "comment" } });
    await held.reached;
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.checkRuns).toHaveLength(1);

    child.child.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    held.release();
    const queue = h.redis.queues.scan("test");
    expect(await queue.getJobState(id)).toBe("active");

    // The killed worker's lock (1 s) lapses and this worker's stalled check finds its job within 300 ms; the lock
    // this worker then takes is long, so a busy machine that holds its event loop past a second does not make the
    // job it holds look stalled a second time (which fails it as stalled more than allowed).
    h.startWorkers(["test"], { timing: { lockDuration: 30_000, stalledInterval: 300 } });
    const [done] = await h.settled("test", 1);
    expect(done?.id).toBe(id);
    expect(done?.failedReason).toBeUndefined();
    expect(done?.stalledCounter).toBe(1);
    expect(done?.returnvalue).toMatchObject({ outcome: "scanned", summary: `${s.target}: 1 drifted` });
    expect(await queue.getJobCounts("completed", "failed", "active", "wait", "delayed")).toEqual({
      completed: 1,
      failed: 0,
      active: 0,
      wait: 0,
      delayed: 0,
    });
    expect(github.writes().map((r) => r.operationId)).toEqual([
      "apps/create-installation-access-token",
      "issues/create",
      "checks/create",
      "apps/create-installation-access-token",
    ]);
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(gh.state.checkRuns[0]).toMatchObject({ head_sha: commit.sha, conclusion: "failure" });
  });
});
