// GitHub failing under the app's real Octokit (Probot's, with its retry and
// throttling plugins, as `undrift worker` runs it) and BullMQ's real worker:
// a 5xx, a 429 with Retry-After and a secondary rate limit. What a user sees:
// the scan is retried rather than failed, no retry comes sooner than GitHub
// asked, no issue or check run is created twice, and other repositories are
// scanned as usual meanwhile.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Job } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { AppOctokit } from "../../src/github/app-octokit.ts";
import { type FakeRepo, fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { type LoggedRequest, type MockReply, useGitHubMock } from "../helpers/github-mock.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let h: AppHarness | undefined;
const scenarios: Scenario[] = [];
afterEach(async () => {
  await h?.close();
  await Promise.all(scenarios.splice(0).map((s) => s.cleanup()));
  h = undefined;
});

/** A warn target whose ConfigMap was edited in the cluster, on `repo`: its scan opens an issue and a check run. */
async function drifted(repo = "gitops") {
  const s = scenario({ files: { "manifests/config.yaml": configMap }, target: { mode: "warn" } });
  scenarios.push(s);
  await s.applyGit();
  await kubectl(["-n", s.namespace, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
  const commit = await commitRepo(s.repoDir, { owner: "acme", repo });
  const gh = fakeRepo({ github, repo, head: commit, installationId: repo === "gitops" ? 957387 : 957388 });
  return { s, gh, configText: readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8") };
}

/** The app with the production Octokit, installed on the repositories given. */
async function installed(repos: Array<{ gh: FakeRepo; configText: string }>, backoffMs = 20) {
  h = await openAppHarness({
    clusters: {
      test: { kubeconfig: kubeconfigPath(), repositories: repos.map(({ gh }) => `acme/${gh.repo}`) },
    },
    octokit: AppOctokit,
    scanJobs: { attempts: 3, backoffMs },
  });
  for (const { gh, configText } of repos) {
    gh.expectToken();
    gh.expectConfig(configText);
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
  }
  return h;
}

/** What GitHub answered, in order, from the `from`th request on: [operation, status]. */
const answered = (from = 0) => github.requests.slice(from).map((r) => [r.operationId ?? r.origin, r.status]);
const after = (r: LoggedRequest, op: string) =>
  github.requests.find((x) => x.at >= r.at && x !== r && x.operationId === op);
const first = (op: string, status?: number) =>
  github.requests.find((r) => r.operationId === op && (status === undefined || r.status === status));

/** GitHub's reply to a POST it refuses: `status`, `message`, and the headers it sends with it. */
const refuse = (status: number, message: string, headers: Record<string, string> = {}): MockReply => ({
  status,
  body: { message, documentation_url: "https://docs.github.com/rest" },
  headers,
});

/** One line of figures per test, for the record: attempts, requests, the writes' answers, a measured wait. */
function figures(name: string, jobs: Array<Job | undefined>, waitMs?: number): void {
  const writes = github.writes().map((r) => `${r.operationId}:${r.status}`);
  const attempts = jobs.map((job) => `${job?.data.repo} ${job?.attemptsMade}`).join(", ");
  const wait = waitMs === undefined ? "" : `, waited ${waitMs}ms`;
  console.info(
    `faults-github ${name}: attempts ${attempts}; ${github.requests.length} requests${wait}; writes ${writes.join(" ")}`,
  );
}

async function settle(app: AppHarness, count = 1): Promise<Job[]> {
  app.startWorkers(["test"]);
  return app.settled("test", count);
}

describe("GitHub failing a write", () => {
  it("502 on creating the issue after GitHub created it: the scan is retried and finds it, so there is one issue", async () => {
    const repo = await drifted();
    const { gh } = repo;
    const app = await installed([repo]);
    const start = github.requests.length;
    // Attempt 1: the issue is created on GitHub, but the answer is lost on the way (a 502 from its front end).
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/issues",
      reply: (req) => {
        const body = req.json as { title: string; body: string; labels?: string[] };
        gh.state.issues.push({
          id: 1,
          number: 1,
          title: body.title,
          body: body.body,
          state: "open",
          labels: (body.labels ?? []).map((name) => ({ name })),
          html_url: "https://github.com/acme/gitops/issues/1",
          user: { login: "undrift-test[bot]" },
        });
        return refuse(502, "Server Error");
      },
    });
    // Attempt 2: the issue is found as it is, and the check run written.
    gh.expectHead();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const [job] = await settle(app);
    expect(await job?.isCompleted()).toBe(true);
    expect(job?.attemptsMade).toBe(2);
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(answered(start).filter(([op]) => op === "issues/create")).toEqual([["issues/create", 502]]);
    figures("502 after create", [job]);
  });

  it("503 on a read: retried in place after a second, and the scan completes on its first attempt", async () => {
    const repo = await drifted();
    const { gh } = repo;
    const app = await installed([repo]);
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    github.expect({ method: "GET", path: "/repos/acme/gitops/issues", reply: refuse(503, "Service Unavailable") });
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const [job] = await settle(app);
    expect(job?.attemptsMade).toBe(1);
    expect(await job?.isCompleted()).toBe(true);
    const failed = first("issues/list-for-repo", 503);
    const retried = failed && after(failed, "issues/list-for-repo");
    expect(retried?.status).toBe(200);
    expect((retried?.at ?? 0) - (failed?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(gh.state.issues).toHaveLength(1);
    figures("503 on a read", [job], (retried?.at ?? 0) - (failed?.at ?? 0));
  });
});

describe("GitHub rate-limiting a write", () => {
  it("429 with Retry-After: 2 on the check run: nothing is sent again before 2s, and nothing is written twice", async () => {
    const repo = await drifted();
    const { gh } = repo;
    const app = await installed([repo]);
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/check-runs",
      reply: refuse(429, "Too Many Requests", { "retry-after": "2", "x-ratelimit-remaining": "4000" }),
    });
    // Attempt 2: the issue is as the scan wants it; the check run is created.
    gh.expectHead();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const [job] = await settle(app);
    expect(await job?.isCompleted()).toBe(true);
    expect(job?.attemptsMade).toBe(2);
    const limited = first("checks/create", 429);
    const next = github.requests.find((r) => limited && r.at > limited.at);
    expect((next?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(2000);
    expect(gh.state.issues).toHaveLength(1);
    expect(gh.state.checkRuns).toHaveLength(1);
    figures("429 Retry-After 2", [job], (next?.at ?? 0) - (limited?.at ?? 0));
  });

  it("403 secondary rate limit with retry-after: 1 on the issue: the scan comes back after 1s, one issue", async () => {
    const repo = await drifted();
    const { gh } = repo;
    const app = await installed([repo]);
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/issues",
      reply: refuse(403, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", {
        "retry-after": "1",
        "x-ratelimit-remaining": "4321",
      }),
    });
    // Probot's throttling only logs a secondary limit; the error goes to the queue, which waits Retry-After.
    gh.expectHead();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const [job] = await settle(app);
    expect(await job?.isCompleted()).toBe(true);
    expect(job?.attemptsMade).toBe(2);
    const limited = first("issues/create", 403);
    const next = github.requests.find((r) => limited && r.at > limited.at);
    expect((next?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(answered().filter(([op]) => op === "issues/create")).toEqual([
      ["issues/create", 403],
      ["issues/create", 201],
    ]);
    expect(gh.state.issues).toHaveLength(1);
    figures("403 secondary retry-after 1", [job], (next?.at ?? 0) - (limited?.at ?? 0));
  });
});

describe("one repository's outage", () => {
  it("leaves the other repository's scans alone: they complete on their first attempt", async () => {
    const down = await drifted("gitops");
    const fine = await drifted("other");
    const app = await installed([down, fine], 500);
    // The app's own login, read once for the process.
    down.gh.expectApp();
    // acme/gitops: its issue is refused with a 500 twice; the third attempt gets through.
    down.gh.expectHead(3);
    down.gh.expectTarball();
    down.gh.expectIssues({ list: 3 });
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/issues",
      times: 2,
      reply: refuse(500, "Server Error"),
    });
    down.gh.expectIssues({ create: 1 });
    down.gh.expectCheckRuns({ list: 1, create: 1 });
    fine.gh.expectHead();
    fine.gh.expectTarball();
    fine.gh.expectIssues({ list: 1, create: 1 });
    fine.gh.expectCheckRuns({ list: 1, create: 1 });
    const jobs = await settle(app, 2);
    const of = (repo: string) => jobs.find((job) => job.data.repo === repo);
    expect(of("acme/other")?.attemptsMade).toBe(1);
    expect(of("acme/gitops")?.attemptsMade).toBe(3);
    expect(await of("acme/gitops")?.isCompleted()).toBe(true);
    expect((of("acme/other")?.finishedOn ?? 0) < (of("acme/gitops")?.finishedOn ?? 0)).toBe(true);
    for (const { gh } of [down, fine]) {
      expect(gh.state.issues).toHaveLength(1);
      expect(gh.state.checkRuns).toHaveLength(1);
    }
    figures("one repository's outage", jobs);
  });
});
