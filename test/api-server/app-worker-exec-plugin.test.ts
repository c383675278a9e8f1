// `undrift worker` stopped (SIGTERM: a rolling upgrade, `kubectl delete pod`) while
// a scan waits on a kubeconfig's exec credential plugin that hangs (issue 31, item 11:
// "a job active for over 8 minutes ... SIGTERM does not end the process"). The
// plugin's bound is set far beyond the test, so only the signal can end the wait: the
// process exits cleanly, and the plugin and the child it started are gone with it.
// The scan it was running goes back to the queue: a stopping worker posts no failing check run.
// The worker is the real command; Redis is a private server (the command's queue
// prefix is the default one), GitHub the mock behind the loopback relay. The cluster
// is never reached (the plugin hangs before the first request), and a SIGTERM is how
// a worker is meant to stop, not a fault: this tier, not end to end.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues, type UndriftQueues } from "../../src/queue/create-queues.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { commitRepo } from "../helpers/app-harness.ts";
import { appPrivateKey } from "../helpers/app-process-setup.ts";
import { type CliProcess, startUndrift } from "../helpers/cli-process.ts";
import { eventually, GaveUp } from "../helpers/eventually.ts";
import { type ExecPluginFixture, execPluginKubeconfig, running } from "../helpers/exec-plugin.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { type GitHubRelay, startGitHubRelay } from "../helpers/github-relay.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let worker: CliProcess | undefined;
let plugin: ExecPluginFixture | undefined;
let s: Scenario | undefined;
let relay: GitHubRelay | undefined;
let redisServer: RedisServer | undefined;
let producer: Redis | undefined;
let queues: UndriftQueues | undefined;
let scratch: string | undefined;
afterEach(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
  await worker?.exited;
  // A plugin the worker left behind is this test's to end.
  for (const pid of (await plugin?.pids()) ?? []) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
  await queues?.close();
  await producer?.quit();
  await redisServer?.stop();
  await relay?.close();
  await plugin?.remove();
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  worker = plugin = s = relay = redisServer = producer = queues = scratch = undefined;
});

describe("undrift worker stopped while a scan waits on an exec credential plugin that hangs", () => {
  it("exits with 0 on SIGTERM, and the plugin and its child end with it", async () => {
    s = scenario({ files: { "manifests/web.yaml": web } });
    const commit = await commitRepo(s.repoDir);
    plugin = await execPluginKubeconfig("hang");
    scratch = await mkdtemp(join(tmpdir(), "undrift-worker-exec-"));
    const registryFile = join(scratch, "clusters.yaml");
    await writeFile(
      registryFile,
      stringify({ clusters: { test: { kubeconfig: plugin.kubeconfig, repositories: ["acme/gitops"] } } }),
    );
    redisServer = await startRedisServer();
    relay = await startGitHubRelay();
    // Up to the cluster's first request: the token, the head and the snapshot. Nothing after the signal: the
    // plugin was stopped because undrift is stopping, which is no fault of the kubeconfig, so the scan goes back to
    // the queue for the next worker and no failing check run is posted (the mock refuses any request not listed).
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();

    worker = startUndrift(["worker"], {
      cwd: scratch,
      env: {
        APP_ID: "4242",
        PRIVATE_KEY: appPrivateKey(),
        GHE_HOST: relay.host,
        GHE_PROTOCOL: "http",
        REDIS_URL: redisServer.url,
        UNDRIFT_CLUSTERS: registryFile,
        UNDRIFT_SNAPSHOT_DIR: join(scratch, "snapshots"),
        UNDRIFT_WORKER_PORT: "0",
        HOST: "127.0.0.1",
        LOG_FORMAT: "json",
        // Far beyond this test: only the signal can end the plugin's wait.
        UNDRIFT_EXEC_TIMEOUT: "600",
      },
    });
    producer = createRedisConnection({ role: "producer", url: redisServer.url });
    // The command's queues are under the default prefix.
    queues = createQueues({ connection: producer });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    await enqueueScan({ queues, job: { ...job, reason: "comment" } });

    const started = worker;
    const pids = await eventually(
      "the scan to start the exec plugin",
      async () => {
        if (started.child.exitCode !== null)
          throw new GaveUp(`the worker exited:\n${started.stdout()}${started.stderr()}`);
        return plugin!.pids();
      },
      { timeoutMs: 45_000, intervalMs: 100 },
    );
    expect(await queues.scan("test").getJobCounts("active")).toEqual({ active: 1 });

    // A hang here is the defect: the test's timeout catches it.
    worker.child.kill("SIGTERM");
    expect(await worker.exited, `${worker.stdout()}${worker.stderr()}`).toBe(0);
    // Closed, not cut short: the workers said they stopped.
    expect(worker.stdout()).toContain('"msg":"undrift workers stopped for test"');
    await eventually(
      "the exec plugin and its child to end",
      async () => {
        for (const pid of pids) if (await running(pid)) return false;
        return true;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // Handed back, not failed: the next worker scans it.
    const counts = await queues.scan("test").getJobCounts("failed", "waiting", "delayed", "active");
    expect(counts.failed).toBe(0);
    expect((counts.waiting ?? 0) + (counts.delayed ?? 0)).toBe(1);
    expect(gh.state.checkRuns).toEqual([]);
  });
});
