// The app on GitHub Enterprise Server: `undrift start` with GHE_HOST set, as an
// operator runs it. Probot reads GHE_HOST (and GHE_PROTOCOL) in its own `run`,
// and the app's web side and its workers both act through that Probot, so the
// resync at boot, the installation token, the config, the snapshot, the issue
// and the check run all go to `https://<GHE_HOST>/api/v3`, checked against the
// GitHub Enterprise Server REST description; nothing goes to api.github.com.
//
// The drift is made on a ConfigMap, which no controller writes: each write to
// a tracked object after the first scan queues a watch scan of its own, and a
// Deployment's controller writes its status whenever it gets to it, on a busy
// machine after that scan; that second scan's requests are not this test's.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { freePort } from "../../scripts/cluster/processes.ts";
import { createRedisConnection } from "../../src/queue/connection.ts";
import { createQueues } from "../../src/queue/create-queues.ts";
import { startWeb } from "../../src/server/web.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { commitRepo } from "../helpers/app-harness.ts";
import { appPrivateKey } from "../helpers/app-process-setup.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { memoryLog, waitFor } from "../helpers/redis.ts";
import { type RedisServer, startRedisServer } from "../helpers/redis-server.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const GHE = "https://ghe.example.test";
const settings = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: info
`;
const github = useGitHubMock({ baseUrl: `${GHE}/api/v3`, description: "ghes-3.19" });

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Sets `vars` in process.env, where Probot's `run` and the app read them, until the test ends. */
function setEnv(vars: Record<string, string>): void {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  cleanups.push(() => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

describe("GHE_HOST", () => {
  it("sends every GitHub request of the web side and the workers to the Enterprise server's API", async () => {
    const s: Scenario = scenario({ files: { "manifests/settings.yaml": settings }, target: { mode: "warn" } });
    cleanups.push(() => s.cleanup());
    await s.applyGit();
    await kubectl([
      "-n",
      s.namespace,
      "patch",
      "configmap",
      "settings",
      "--type=merge",
      "-p",
      '{"data":{"level":"debug"}}',
    ]);
    const commit = await commitRepo(s.repoDir);
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const scratch = await mkdtemp(join(tmpdir(), "undrift-ghe-"));
    cleanups.push(() => rm(scratch, { recursive: true, force: true }));
    const registryFile = join(scratch, "clusters.yaml");
    await writeFile(
      registryFile,
      stringify({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } }),
    );
    const privateKey = appPrivateKey();

    const gh = fakeRepo({ github, head: commit });
    // The resync at boot: the app's installations, their repositories, each one's config.
    github.expect({
      method: "GET",
      path: "/app/installations",
      query: { per_page: 100 },
      reply: { body: [{ id: gh.installationId, account: { login: gh.owner }, suspended_at: null }] },
    });
    gh.expectToken();
    github.expect({
      method: "GET",
      path: "/installation/repositories",
      query: { per_page: 100 },
      reply: { body: { total_count: 1, repositories: [{ id: 1296269, full_name: "acme/gitops" }] } },
    });
    gh.expectConfig(await readFile(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    // The new target's first scan, in the workers.
    gh.expectApp();
    gh.expectHead();
    // GitHub Enterprise Server sends a tarball from its codeload host.
    const archive = `/acme/gitops/legacy.tar.gz/${commit.sha}`;
    github.expect({
      method: "GET",
      path: `/repos/acme/gitops/tarball/${commit.sha}`,
      reply: { status: 302, headers: { location: `https://codeload.ghe.example.test${archive}` } },
    });
    github.expect({
      method: "GET",
      origin: "https://codeload.ghe.example.test",
      path: archive,
      reply: { body: commit.archive, headers: { "content-type": "application/x-gzip" } },
    });
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });

    setEnv({
      GHE_HOST: "ghe.example.test",
      APP_ID: "4242",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "undrift-ghe-secret",
      HOST: "127.0.0.1",
      PORT: String(await freePort()),
      LOG_LEVEL: "silent",
      LOG_FORMAT: "json",
      REDIS_URL: redis.url,
      UNDRIFT_CLUSTERS: registryFile,
      UNDRIFT_SNAPSHOT_DIR: join(scratch, "snapshots"),
    });
    const app = await startWeb({ workers: true });
    cleanups.push(() => app.close());

    // The app's queues use the default prefix; the private Redis is this test's alone.
    const connection = createRedisConnection({ role: "producer", url: redis.url });
    const queues = createQueues({ connection, log: memoryLog() });
    cleanups.push(async () => {
      await queues.close();
      await connection.quit();
    });
    const queue = queues.scan("test");
    await waitFor("the first scan to finish", async () => (await queue.getCompletedCount()) > 0, 45_000);
    const [done] = await queue.getCompleted();
    expect(done?.data).toMatchObject({ repo: "acme/gitops", target: s.target, reason: "install" });
    expect(done?.returnvalue).toMatchObject({
      summary: `${s.target}: 1 drifted`,
      actions: ["created issue #1", `created check run undrift/${s.target}`],
    });
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.checkRuns).toMatchObject([{ head_sha: commit.sha, conclusion: "failure" }]);

    const api = github.requests.filter((r) => r.origin !== "https://codeload.ghe.example.test");
    expect(api.map((r) => `${r.origin}${r.path.split("/").slice(0, 3).join("/")}`)).toEqual(
      api.map(() => `${GHE}/api/v3`),
    );
    expect(api.map((r) => r.operationId)).toEqual([
      "apps/list-installations",
      "apps/create-installation-access-token",
      "apps/list-repos-accessible-to-installation",
      "repos/get-content",
      "repos/get",
      "repos/get-branch",
      "repos/download-tarball-archive",
      "apps/get-authenticated",
      "issues/list-for-repo",
      "issues/create",
      "checks/list-for-ref",
      "checks/create",
    ]);
  });
});
