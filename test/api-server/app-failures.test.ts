import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { closedPortKubeconfig, kubeconfigPath, uniqueName } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { type MetricsEndpoint, sample, serveMetrics } from "../helpers/metrics.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
// The shared Deployment with a bare replicas line, as this file has always committed it.
const web = webDeployment.replace(" # Git says two", "");

let h: AppHarness | undefined;
let s: Scenario | undefined;
let metrics: MetricsEndpoint | undefined;
afterEach(async () => {
  await metrics?.close();
  await h?.close();
  await s?.cleanup();
  h = s = metrics = undefined;
});

/** A codify target whose Deployment was scaled to 4 in the cluster, installed on acme/gitops. */
async function codifyScenario() {
  s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "codify" } });
  await s.applyGit();
  await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
  const commit = await commitRepo(s.repoDir);
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const gh = fakeRepo({ github, head: commit });
  gh.expectToken();
  gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
  return { gh, h, s, commit };
}

describe("failures on the way", () => {
  it("retries a scan whose pull request GitHub refused with a 500, and ends with exactly one PR", async () => {
    const { gh, h, s } = await codifyScenario();
    const branch = `undrift/codify/${s.target}`;
    // Attempt 1: everything up to the PR, which GitHub answers with a 500.
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/pulls",
      reply: { status: 500, body: { message: "Server Error" } },
    });
    // Attempt 2: the branch left by attempt 1 is moved, and the PR opened.
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/git/refs",
      reply: { status: 422, body: { message: "Reference already exists" } },
    });
    github.expect({
      method: "PATCH",
      path: `/repos/acme/gitops/git/refs/heads/${branch}`,
      reply: (req) => {
        gh.state.refs.set(`heads/${branch}`, (req.json as { sha: string }).sha);
        return { body: { ref: `refs/heads/${branch}` } };
      },
    });
    gh.expectPulls({ create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    // Attempt 1's reason stays on the job; it completed on attempt 2.
    expect(await job?.isCompleted()).toBe(true);
    expect(job?.attemptsMade).toBe(2);
    expect(job?.returnvalue).toMatchObject({
      actions: ["created pull request #1", `created check run undrift/${s.target}`],
    });
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.pulls[0]?.head.sha).toBe(gh.state.refs.get(`heads/${branch}`));
    expect(gh.state.trees[1]?.tree[0]?.content).toContain("replicas: 4");
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(github.requests.slice(2).map((r) => [r.operationId ?? r.origin, r.status])).toEqual([
      ["repos/get", 200],
      ["repos/get-branch", 200],
      ["repos/download-tarball-archive", 302],
      ["https://codeload.github.com", 200],
      ["pulls/list", 200],
      ["git/create-tree", 201],
      ["git/create-commit", 201],
      ["git/create-ref", 201],
      ["pulls/create", 500],
      // Attempt 2: the snapshot is cached by SHA, and unchanged reads cost nothing.
      ["repos/get", 304],
      ["repos/get-branch", 304],
      ["pulls/list", 304],
      ["git/create-tree", 201],
      ["git/create-commit", 201],
      ["git/create-ref", 422],
      ["git/update-ref", 200],
      ["pulls/create", 201],
      ["checks/list-for-ref", 200],
      ["checks/create", 201],
    ]);
  });

  it("retries a scan that GitHub rate-limited with a 429 and retry-after, writing nothing twice", async () => {
    const { gh, h, s } = await codifyScenario();
    // Attempt 1: the PR is opened, then its check run is rate-limited.
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectCheckRuns({ list: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/check-runs",
      reply: {
        status: 429,
        body: { message: "You have exceeded a secondary rate limit." },
        headers: { "retry-after": "1" },
      },
    });
    // Attempt 2: the same drift finds its PR and leaves it be; the check run is created.
    gh.expectHead();
    gh.expectPulls({ list: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [job] = await h.settled("test", 1);
    expect(await job?.isCompleted()).toBe(true);
    expect(job?.attemptsMade).toBe(2);
    expect(job?.returnvalue).toMatchObject({ actions: [`created check run undrift/${s.target}`] });
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.checkRuns).toEqual([expect.objectContaining({ conclusion: "failure" })]);
    expect(github.writes().map((r) => [r.operationId, r.status])).toEqual([
      ["apps/create-installation-access-token", 201],
      ["git/create-tree", 201],
      ["git/create-commit", 201],
      ["git/create-ref", 201],
      ["pulls/create", 201],
      ["checks/create", 429],
      ["checks/create", 201],
    ]);
  });

  it("reports an unreachable cluster in its target's check run, in one line, scans the other target as usual, and counts each cluster's scans under its own name", async () => {
    const down = uniqueName("down");
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    const config = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
    const parsed = parse(config) as { targets: Array<Record<string, unknown>> };
    parsed.targets.push({ ...parsed.targets[0], name: down, cluster: "down" });
    const configText = stringify(parsed);
    s.write({ ".github/undrift.yml": configText });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    const kubeconfig = join(s.repoDir, "..", `${down}.kubeconfig`);
    await writeFile(kubeconfig, await closedPortKubeconfig());
    h = await openAppHarness({
      clusters: {
        test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] },
        down: { kubeconfig, repositories: ["acme/gitops"] },
      },
    });
    metrics = await serveMetrics();
    const scans = (text: string, cluster: string, result: string) =>
      sample(text, `undrift_scans_total{cluster="${cluster}",result="${result}"}`) ?? 0;
    const before = await metrics.scrape();
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectConfig(configText);
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);

    // The target on the test cluster: its usual warn result.
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["test"]);
    const [ok] = await h.settled("test", 1);
    expect(ok?.returnvalue).toMatchObject({ summary: `${s.target}: 1 drifted` });

    // The target on the cluster that is down: every attempt fails; the last one is reported.
    const mark = github.requests.length;
    gh.expectHead(4);
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["down"]);
    const [failed] = await h.settled("down", 1);
    expect(failed?.attemptsMade).toBe(3);
    const check = gh.state.checkRuns.find((run) => run.name === `undrift/${down}`);
    expect(check?.conclusion).toBe("failure");
    expect(check?.output.title).toMatch(
      new RegExp(
        `^could not scan ${down}: cluster at https://127\\.0\\.0\\.1:\\d+ is unreachable: connect ECONNREFUSED [^\\n]+$`,
      ),
    );
    // Each attempt reads the (unchanged) head; only the last, failed one writes: its check run.
    expect(github.requests.slice(mark).map((r) => [r.operationId, r.status])).toEqual([
      ...Array.from({ length: 4 }, () => [
        ["repos/get", 304],
        ["repos/get-branch", 304],
      ]).flat(),
      ["checks/list-for-ref", 200],
      ["checks/create", 201],
    ]);
    expect(gh.state.checkRuns.find((run) => run.name === `undrift/${s?.target}`)).toMatchObject({
      conclusion: "failure",
      output: { title: `${s.target}: 1 drifted` },
    });
    expect(gh.state.issues).toHaveLength(1);

    // /metrics: each cluster's scans under its own name. The down cluster's three attempts failed, and its
    // target never scanned; the test cluster's one scan found drift and failed nothing.
    const after = await metrics.scrape();
    expect(scans(after, "down", "failed") - scans(before, "down", "failed")).toBe(3);
    expect(scans(after, "down", "drifted") + scans(after, "down", "in-sync")).toBe(0);
    expect(
      sample(
        after,
        `undrift_last_successful_scan_timestamp_seconds{repo="acme/gitops",target="${down}",cluster="down"}`,
      ),
    ).toBeUndefined();
    expect(scans(after, "test", "drifted") - scans(before, "test", "drifted")).toBe(1);
    expect(scans(after, "test", "failed") - scans(before, "test", "failed")).toBe(0);
  });

  it("fails a scan whose kubeconfig's exec plugin hangs after UNDRIFT_EXEC_TIMEOUT, for good, with a check run naming the plugin, and kills it", async () => {
    const sso = uniqueName("sso");
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    const parsed = parse(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8")) as {
      targets: Array<Record<string, unknown>>;
    };
    parsed.targets.push({ ...parsed.targets[0], name: sso, cluster: "sso" });
    const configText = stringify(parsed);
    s.write({ ".github/undrift.yml": configText });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    // The test cluster's kubeconfig, its users' tokens handed out by a plugin that notes its pid and hangs.
    const dir = await mkdtemp(join(tmpdir(), "undrift-exec-plugin-"));
    const plugin = join(dir, "plugin.sh");
    const pidFile = `${plugin}.pid`;
    await writeFile(plugin, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 1000\n`, { mode: 0o700 });
    const kubeconfig = join(dir, "kubeconfig");
    const config = parse(readFileSync(kubeconfigPath(), "utf8")) as { users: Array<{ user: Record<string, unknown> }> };
    for (const entry of config.users)
      entry.user = { exec: { apiVersion: "client.authentication.k8s.io/v1", command: plugin } };
    await writeFile(kubeconfig, stringify(config), { mode: 0o600 });
    vi.stubEnv("UNDRIFT_EXEC_TIMEOUT", "1");
    try {
      h = await openAppHarness({
        clusters: {
          test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] },
          sso: { kubeconfig, repositories: ["acme/gitops"] },
        },
      });
      const gh = fakeRepo({ github, head: commit });
      gh.expectToken();
      gh.expectConfig(configText);
      expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);

      // The target on the test cluster first, so the snapshot is on disk when the other runs.
      gh.expectApp();
      gh.expectHead();
      gh.expectTarball();
      gh.expectIssues({ list: 1, create: 1 });
      gh.expectCheckRuns({ list: 1, create: 1 });
      h.startWorkers(["test"]);
      await h.settled("test", 1);

      // The plugin's bound is a setting, not a passing fault: one attempt, reported.
      gh.expectHead(2);
      gh.expectCheckRuns({ list: 1, create: 1 });
      h.startWorkers(["sso"]);
      const [failed] = await h.settled("sso", 1);
      expect(failed?.attemptsMade).toBe(1);
      const check = gh.state.checkRuns.find((run) => run.name === `undrift/${sso}`);
      expect(check?.conclusion).toBe("failure");
      expect(check?.output.title).toBe(
        `could not scan ${sso}: cluster undrift-test: ${kubeconfig}: user "admin": exec plugin ${plugin} gave no credentials within 1 s and was stopped (UNDRIFT_EXEC_TIMEOUT sets the bound)`,
      );
      const pid = Number(readFileSync(pidFile, "utf8"));
      await vi.waitFor(() => expect(() => process.kill(pid, 0), `plugin ${pid} still runs`).toThrow(), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      vi.unstubAllEnvs();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
