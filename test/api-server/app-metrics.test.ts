// /metrics after real scans: a warn-mode target with two drifted objects (a
// scaled Deployment and a Secret changed by hand), one missing and one orphan is
// scanned by the app's worker against the test cluster, and the series read
// from the endpoint say 2/1/1 under the target's labels; once the drift is
// undone the next scan sets them to 0, the last successful scan's time moves,
// each scan is counted once per cluster with its result, duration and API
// requests, the queue's finished jobs show, GitHub's answers are counted by
// status, and the installation's rate limit left is the one GitHub last said
// (the mock sends GitHub's rate limit headers). No series carries an object's
// name, a namespace or a Secret's value.
import { afterEach, describe, expect, it } from "vitest";
import { AppOctokit } from "../../src/github/app-octokit.ts";
import { type ProbeServer, serveProbes } from "../../src/metrics/serve-probes.ts";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { watchQueueDepths } from "../../src/queue/watch-queue-depths.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { sample } from "../helpers/metrics.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const RATE_LIMIT = 5000;
const github = useGitHubMock({ rateLimit: RATE_LIMIT });
const GIT_SECRET = "git-secret-value-7f3a";
const LIVE_SECRET = "live-secret-value-9c1d";
const storefront = webDeployment.replaceAll("web", "storefront");
const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\nstringData:\n  password: ${GIT_SECRET}\n`;
const settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: missing-settings\ndata:\n  LEVEL: info\n";

let h: AppHarness | undefined;
let s: Scenario | undefined;
let probes: ProbeServer | undefined;
let unwatch: (() => void) | undefined;
afterEach(async () => {
  unwatch?.();
  await probes?.close();
  await h?.close();
  await s?.cleanup();
  h = s = probes = unwatch = undefined;
});

describe("/metrics after real scans", () => {
  it("reports a target's drift by status, 0 once it is undone, each scan by cluster and result, the queue, when it last scanned, GitHub's answers by status and the rate limit left", async () => {
    s = scenario({
      files: {
        "manifests/storefront.yaml": storefront,
        "manifests/secret.yaml": secret,
        "manifests/settings.yaml": settings,
      },
      target: { mode: "warn" },
    });
    await s.applyGit();
    const ns = s.namespace;
    // Two drifted, one missing, one orphaned.
    await kubectl(["-n", ns, "scale", "deployment", "storefront", "--replicas=4"]);
    await kubectl([
      "-n",
      ns,
      "patch",
      "secret",
      "db-credentials",
      "-p",
      JSON.stringify({ stringData: { password: LIVE_SECRET } }),
    ]);
    await kubectl(["-n", ns, "delete", "configmap", "missing-settings"]);
    const stray = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "stray-cm", namespace: ns, labels: { "undrift.dev/target": s.target } },
    };
    await kubectl(["create", "-f", "-"], JSON.stringify(stray));

    const commit = await commitRepo(s.repoDir);
    // The production Octokit, so its request counting runs; retries and throttling off, as the harness's own.
    h = await openAppHarness({
      clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } },
      octokit: AppOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    probes = await serveProbes({ port: 0, host: "127.0.0.1", checks: [] });
    // As undrift worker and undrift start do: the queue depths are read from Redis at each scrape.
    unwatch = watchQueueDepths({ queues: h.redis.queues, clusters: ["test"] });
    const scrape = async () => (await fetch(`http://127.0.0.1:${probes!.port}/metrics`)).text();
    const t = `repo="acme/gitops",target="${s.target}",cluster="test"`;
    const drift = (text: string, status: string) => sample(text, `undrift_drift_objects{${t},status="${status}"}`);
    const lastScan = (text: string) => sample(text, `undrift_last_successful_scan_timestamp_seconds{${t}}`);
    const answered = (text: string, status: number) =>
      sample(text, `undrift_github_requests_total{status="${status}"}`) ?? 0;
    const loggedSince = (mark: number, status: number) =>
      github.requests.slice(mark).filter((r) => r.status === status).length;
    // Series counted since this process started: each step is checked by how much it moved.
    const moved = (from: string, to: string, series: string) => (sample(to, series) ?? 0) - (sample(from, series) ?? 0);
    const jobs = (text: string, state: string) =>
      sample(text, `undrift_queue_jobs{queue="undrift-scan.test",state="${state}"}`);
    /** The x-ratelimit-remaining of GitHub's last answer to the installation's token (the App's own JWT has its own window). */
    const lastRemaining = () =>
      github.requests.filter((r) => r.headers.authorization?.startsWith("token ")).at(-1)?.rateLimitRemaining;
    const before = await scrape();
    expect(lastScan(before)).toBeUndefined();

    // 1. The first scan: 2 drifted, 1 missing, 1 orphaned.
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    const started = Math.floor(Date.now() / 1000);
    let mark = github.requests.length;
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toMatchObject({ summary: `${s.target}: 2 drifted, 1 missing, 1 orphaned` });
    const afterFirst = await scrape();
    expect([drift(afterFirst, "drifted"), drift(afterFirst, "missing"), drift(afterFirst, "orphaned")]).toEqual([
      2, 1, 1,
    ]);
    // One scan, counted for its cluster as drifted, its duration and its API requests by verb observed once.
    expect(moved(before, afterFirst, 'undrift_scans_total{cluster="test",result="drifted"}')).toBe(1);
    expect(moved(before, afterFirst, 'undrift_scans_total{cluster="test",result="in-sync"}')).toBe(0);
    expect(moved(before, afterFirst, 'undrift_scans_total{cluster="test",result="failed"}')).toBe(0);
    expect(moved(before, afterFirst, 'undrift_scan_duration_seconds_count{cluster="test"}')).toBe(1);
    expect(moved(before, afterFirst, 'undrift_scan_duration_seconds_sum{cluster="test"}')).toBeGreaterThan(0);
    for (const verb of ["GET", "PATCH"])
      expect(moved(before, afterFirst, `undrift_scan_api_requests_count{cluster="test",verb="${verb}"}`)).toBe(1);
    // Discovery and the LISTs are GETs; the drifted objects' dry-run applies are PATCHes.
    expect(moved(before, afterFirst, 'undrift_scan_api_requests_sum{cluster="test",verb="GET"}')).toBeGreaterThan(0);
    expect(moved(before, afterFirst, 'undrift_scan_api_requests_sum{cluster="test",verb="PATCH"}')).toBeGreaterThan(0);
    // The queue: the job done, nothing waiting or running.
    expect([jobs(afterFirst, "completed"), jobs(afterFirst, "waiting"), jobs(afterFirst, "active")]).toEqual([1, 0, 0]);
    // The rate limit the installation has left: what GitHub's last answer to its token said.
    const remainingFirst = sample(
      afterFirst,
      `undrift_github_rate_limit_remaining{installation="${gh.installationId}"}`,
    );
    expect(remainingFirst).toBe(lastRemaining());
    expect(remainingFirst).toBeLessThan(RATE_LIMIT);
    const firstScanAt = lastScan(afterFirst)!;
    expect(firstScanAt).toBeGreaterThanOrEqual(started);
    // The installation token, the issue and the check run were created: three 201s, counted as GitHub answered them.
    expect(answered(afterFirst, 201) - answered(before, 201)).toBe(loggedSince(mark, 201));
    expect(loggedSince(mark, 201)).toBe(3);

    // 2. The drift undone by hand: the next scan sets every gauge to 0 and moves the time.
    await kubectl(["-n", ns, "scale", "deployment", "storefront", "--replicas=2"]);
    await kubectl([
      "-n",
      ns,
      "patch",
      "secret",
      "db-credentials",
      "-p",
      JSON.stringify({ stringData: { password: GIT_SECRET } }),
    ]);
    await kubectl(["-n", ns, "delete", "configmap", "stray-cm"]);
    await s.applyGit();
    gh.expectHead();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    const secondStarted = Math.floor(Date.now() / 1000);
    mark = github.requests.length;
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    const settled = await h.settled("test", 2);
    expect(settled.at(-1)?.returnvalue).toMatchObject({ summary: `${s.target}: in sync (3 objects)` });
    const afterSecond = await scrape();
    expect([drift(afterSecond, "drifted"), drift(afterSecond, "missing"), drift(afterSecond, "orphaned")]).toEqual([
      0, 0, 0,
    ]);
    expect(moved(afterFirst, afterSecond, 'undrift_scans_total{cluster="test",result="in-sync"}')).toBe(1);
    expect(moved(afterFirst, afterSecond, 'undrift_scans_total{cluster="test",result="drifted"}')).toBe(0);
    expect(moved(afterFirst, afterSecond, 'undrift_scan_duration_seconds_count{cluster="test"}')).toBe(1);
    expect(jobs(afterSecond, "completed")).toBe(2);
    // The second scan's calls spent more of the window.
    const remainingSecond = sample(
      afterSecond,
      `undrift_github_rate_limit_remaining{installation="${gh.installationId}"}`,
    );
    expect(remainingSecond).toBe(lastRemaining());
    expect(remainingSecond).toBeLessThan(remainingFirst!);
    expect(lastScan(afterSecond)).toBeGreaterThanOrEqual(Math.max(firstScanAt, secondStarted));
    // The conditional reads GitHub answered 304 (the repository, the branch, the issue and check run lists).
    expect(loggedSince(mark, 304)).toBeGreaterThan(0);
    expect(answered(afterSecond, 304) - answered(afterFirst, 304)).toBe(loggedSince(mark, 304));

    // Names, namespaces and values stay out of the series.
    for (const text of [afterFirst, afterSecond]) {
      for (const word of ["storefront", "db-credentials", "missing-settings", "stray-cm", ns, GIT_SECRET, LIVE_SECRET])
        expect(text).not.toContain(word);
      expect(text).not.toContain(Buffer.from(GIT_SECRET).toString("base64"));
      expect(text).not.toContain(Buffer.from(LIVE_SECRET).toString("base64"));
    }
  });
});
