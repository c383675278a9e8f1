// A warn-mode target end to end: the app is installed (signed webhook), its
// scheduler's first scan runs in the app's worker against the real test
// cluster, and the drift made with kubectl becomes a failing check run on the
// default branch head and one tracking issue. A later scan of the same drift
// writes nothing and, once GitHub's ETags have caught up, costs only 304s;
// when the drift is gone the issue is closed with a comment and the check passes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { BOT, fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

describe("a warn-mode target", () => {
  it("turns drift into a check run and one tracking issue, writes nothing for the same drift, and closes the issue when it is gone", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });

    // 1. Installed: the scheduler's first scan finds the drift.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toMatchObject({
      outcome: "scanned",
      revision: commit.sha,
      summary: `${s.target}: 1 drifted`,
      actions: ["created issue #1", `created check run undrift/${s.target}`],
    });
    const [issue] = gh.state.issues;
    expect(issue).toMatchObject({
      number: 1,
      state: "open",
      title: `undrift: ${s.target} has drifted from Git on test`,
    });
    expect(issue?.body).toMatch(new RegExp(`^<!-- undrift:tracking target=${s.target} digest=[0-9a-f]+ -->\n`));
    expect(issue?.body).toContain("/spec/replicas");
    expect(issue?.body).toContain(commit.sha);
    const [check] = gh.state.checkRuns;
    expect(check).toMatchObject({
      name: `undrift/${s.target}`,
      head_sha: commit.sha,
      conclusion: "failure",
      output: { title: `${s.target}: 1 drifted` },
    });
    expect(check?.output.summary).toContain("mode `warn`");
    expect(check?.output.summary).toContain("Tracking issue: #1");
    expect(check?.output.text).toContain("/spec/replicas");
    const firstScan = github.requests.length - 2;

    // 2. A scheduled scan of the same drift: conditional reads only, and no write.
    let mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    await h.settled("test", 2);
    const second = github.requests.slice(mark);
    expect(second.every((r) => r.method === "GET" && r.headers["if-none-match"])).toBe(true);
    expect(second.map((r) => [r.operationId, r.status])).toEqual([
      ["repos/get", 304],
      ["repos/get-branch", 304],
      // The issue and the check run were written since the last read, so GitHub answers these two afresh.
      ["issues/list-for-repo", 200],
      ["checks/list-for-ref", 200],
    ]);

    // 3. Again: now every answer is a 304, which GitHub does not count against the rate limit.
    mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    await h.settled("test", 3);
    expect(github.requests.slice(mark).map((r) => r.status)).toEqual([304, 304, 304, 304]);

    // 4. The drift is undone by hand: the issue is closed with a comment, the check run passes.
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    const jobs = await h.settled("test", 4);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({
      summary: `${s.target}: in sync (1 object)`,
      actions: ["closed issue #1", `updated check run undrift/${s.target}`],
    });
    expect(gh.state.issues[0]?.state).toBe("closed");
    expect(gh.state.comments).toEqual([{ issue: 1, body: expect.stringContaining("no drift left") }]);
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(gh.state.checkRuns[0]).toMatchObject({
      conclusion: "success",
      output: { title: `${s.target}: in sync (1 object)` },
    });
    expect(github.requests.slice(mark).map((r) => [r.operationId, r.status])).toEqual([
      ["repos/get", 304],
      ["repos/get-branch", 304],
      ["issues/list-for-repo", 304],
      ["issues/create-comment", 201],
      ["issues/update", 200],
      ["checks/list-for-ref", 304],
      ["checks/update", 200],
    ]);

    // Every scan and action is in the audit trail, with names and pointers, never values.
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.map((a) => a.event)).toEqual([
      "schedule",
      "scan",
      "issue-opened",
      "check-run",
      "scan",
      "scan",
      "scan",
      "issue-closed",
      "check-run",
    ]);
    expect(audit[1]).toMatchObject({
      target: s.target,
      cluster: "test",
      revision: commit.sha,
      objects: [`Deployment/${s.namespace}/web`],
      fields: [`Deployment/${s.namespace}/web:/spec/replicas`],
      actor: "undrift",
    });
    expect(firstScan).toBe(9);
    expect(jobs.every((job) => job.finishedOn && !job.failedReason)).toBe(true);
  });

  it("in a repository whose bot has opened more than a page of issues, finds the target's issue by its kept number", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    // 100 closed tracking issues of other targets: one full page of the bot's issues, as at 100 targets or more.
    for (let n = 1; n <= 100; n++) {
      gh.state.issues.push({
        id: 5000 + n,
        number: n,
        title: `undrift: other-${n} has drifted`,
        body: `<!-- undrift:tracking target=other-${n} digest=0000000000000000 -->\nold`,
        state: "closed",
        labels: [],
        html_url: `https://github.com/acme/gitops/issues/${n}`,
        user: { login: BOT },
      });
    }

    // 1. No issue yet: every page is read (two: the full first, the empty second), then the issue is opened.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 2, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.returnvalue).toMatchObject({
      actions: ["created issue #101", `created check run undrift/${s.target}`],
    });

    // 2. The same drift again: the first page, then issue #101 by its number; the second page is not read.
    const mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1, get: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    const jobs = await h.settled("test", 2);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({ summary: `${s.target}: 1 drifted`, actions: [] });
    expect(github.requests.slice(mark).map((r) => [r.operationId, r.query.page ?? r.path])).toEqual([
      ["repos/get", "/repos/acme/gitops"],
      ["repos/get-branch", "/repos/acme/gitops/branches/main"],
      ["issues/list-for-repo", "1"],
      ["issues/get", "/repos/acme/gitops/issues/101"],
      ["checks/list-for-ref", `/repos/acme/gitops/commits/${commit.sha}/check-runs`],
    ]);
    expect(gh.state.issues.filter((i) => i.state === "open")).toHaveLength(1);
  });
});
