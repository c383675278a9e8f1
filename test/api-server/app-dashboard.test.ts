// The tracking issue as a dashboard, end to end: a warn-mode target's issue
// carries boxes per object and field; a writer's tick (an issues.edited
// webhook, the old body in changes.body.from) becomes exactly one action in
// the worker against the real cluster: a codify or revert PR of just the
// ticked field, a snooze that keeps the object out of the report until its
// time (the workers' clock is moved here), a rescan, an ignore job; each box
// is unticked with a line saying who asked for what, and audited. A tick by a
// user without write access is unticked with a refusal, and a redelivered
// edit does one thing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { IGNORE_JOB } from "../../src/queue/jobs.ts";
import { boxId, type DashboardAction } from "../../src/report/app/dashboard-boxes.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { installationPayload, issuesEditedPayload } from "../helpers/app-payloads.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const DAY = 24 * 3600_000;
const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  LOG_LEVEL: info
`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

function expectPermission(username: string, role: "write" | "read") {
  github.expect({
    method: "GET",
    path: `/repos/acme/gitops/collaborators/${username}/permission`,
    reply: { body: { permission: role, role_name: role, user: { login: username, id: 1, type: "User" } } },
  });
}

/** `body` with the box of `id` ticked, as GitHub's task list does when clicked. */
function ticked(body: string, id: string): string {
  const lines = body.split("\n");
  const at = lines.findIndex((l) => l.includes(`id=${id} -->`));
  expect(at, `box ${id} on the issue`).toBeGreaterThanOrEqual(0);
  lines[at] = lines[at]!.replace("[ ]", "[x]");
  return lines.join("\n");
}

const operations = (from: number) => github.requests.slice(from).map((r) => r.operationId);

describe("the tracking issue as a dashboard", () => {
  it("acts once on each box a writer ticks, on just the ticked items, unticks it and says who asked for what", {
    timeout: 180_000,
  }, async () => {
    s = scenario({ files: { "manifests/web.yaml": web, "manifests/config.yaml": config }, target: { mode: "warn" } });
    await s.applyGit();
    const ns = s.namespace;
    await kubectl(["-n", ns, "scale", "deployment", "web", "--replicas=4"]);
    await kubectl(["-n", ns, "set", "image", "deployment/web", "web=nginx:1.28"]);
    await kubectl(["-n", ns, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const commit = await commitRepo(s.repoDir);
    const configText = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    const target = s.target;
    const webRef = { apiVersion: "apps/v1", kind: "Deployment", namespace: ns, name: "web" };
    const cmRef = { apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "app-config" };
    const box = (action: DashboardAction, ref?: typeof webRef, path?: string) =>
      boxId({ target, action, ...(ref ? { ref } : {}), ...(path ? { path } : {}) });
    const issue = () => gh.state.issues[0]!;
    const edit = async (after: string, sender = "bob", id?: string) => {
      const before = issue().body;
      issue().body = after;
      const payload = issuesEditedPayload(gh, { number: 1, before, after, sender });
      expect((await h!.deliver("issues", payload, id ? { id } : {})).status).toBe(200);
      return payload;
    };
    let clock = Date.parse("2026-12-02T12:00:00Z");

    // 1. Installed: the first scan opens the tracking issue, with its boxes.
    gh.expectToken();
    gh.expectConfig(configText);
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"], { now: () => clock });
    await h.settled("test", 1);
    const image = /`(\/spec\/template\/spec\/containers\/[^`]*\/image)`/.exec(issue().body)?.[1];
    expect(image).toBeDefined();
    for (const id of [box("rescan"), box("codify", webRef, "/spec/replicas"), box("snooze-1d", cmRef)])
      expect(issue().body).toContain(`id=${id} -->`);
    expect(issue().body).not.toContain("[x]");

    // 2. bob ticks codify for one field: a codify PR with just that field.
    let mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectIssues({ get: 1, update: 1 });
    await edit(ticked(issue().body, box("codify", webRef, "/spec/replicas")));
    const [, codify] = await h.settled("test", 2);
    expect(codify?.failedReason).toBeUndefined();
    const codifyPr = gh.state.pulls[0]!;
    expect(codifyPr.head.ref).toBe(`undrift/codify/${target}`);
    const edited = gh.state.trees[0]?.tree[0]?.content;
    expect(edited).toContain("replicas: 4 # Git says two");
    expect(edited).toContain("image: nginx:1.27");
    expect(issue().body).not.toContain("[x]");
    expect(issue().body).toContain(
      `- @bob asked to codify \`apps/v1 Deployment ${ns}/web\` \`/spec/replicas\` → #${codifyPr.number} ${codifyPr.html_url}`,
    );
    expect(operations(mark)).toEqual([
      "repos/get-collaborator-permission-level",
      "repos/get-content",
      "repos/get",
      "repos/get-branch",
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "issues/get",
      "issues/update",
    ]);

    // 3. Revert likewise: the revert PR's record names the image field only.
    mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectIssues({ get: 1, update: 1 });
    await edit(ticked(issue().body, box("revert", webRef, image)));
    await h.settled("test", 3);
    const revertPr = gh.state.pulls[1]!;
    expect(revertPr.head.ref).toBe(`undrift/revert/${target}`);
    const record = gh.state.trees[1]?.tree[0]?.content ?? "";
    expect(record).toContain(image!);
    expect(record).not.toContain("/spec/replicas");
    expect(record).not.toContain("LOG_LEVEL");
    expect(issue().body).toContain(
      `- @bob asked to revert \`apps/v1 Deployment ${ns}/web\` \`${image}\` → #${revertPr.number} ${revertPr.html_url}`,
    );
    expect(operations(mark)).toHaveLength(11);

    // 4. Snooze the ConfigMap for a day: the scan that follows leaves it out, and the issue says until when and who.
    mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectHead(2);
    gh.expectIssues({ get: 1, list: 1, update: 2 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await edit(ticked(issue().body, box("snooze-1d", cmRef)));
    await h.settled("test", 5);
    expect(issue().body).toContain(`- \`v1 ConfigMap ${ns}/app-config\` until 2026-12-03 12:00 UTC, asked by @bob`);
    expect(issue().body).not.toContain(`id=${box("revert", cmRef)} -->`);
    expect(gh.state.checkRuns[0]?.output.title).toBe(`${target}: 1 drifted`);
    expect(issue().body).toContain(`- @bob snoozed \`v1 ConfigMap ${ns}/app-config\` until 2026-12-03 12:00 UTC`);
    const snoozeRequests = operations(mark);

    // 5. Two days later the snooze is over: the next scan reports the ConfigMap again.
    clock += 2 * DAY;
    mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({
      queues: h.redis.queues,
      job: { installationId: gh.installationId, repo: "acme/gitops", target, cluster: "test", reason: "schedule" },
    });
    await h.settled("test", 6);
    expect(issue().body).toContain(`id=${box("revert", cmRef)} -->`);
    expect(issue().body).not.toContain("asked by @bob");
    expect(gh.state.checkRuns[0]?.output.title).toBe(`${target}: 2 drifted`);

    // 6. Rescan now: one scan runs.
    mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectIssues({ get: 1, list: 1, update: 2 });
    gh.expectHead();
    gh.expectCheckRuns({ list: 1 });
    await edit(ticked(issue().body, box("rescan")));
    const afterRescan = await h.settled("test", 8);
    expect(afterRescan.at(-1)?.name).toBe("scan");
    expect(afterRescan.at(-1)?.data).toMatchObject({ target, reason: "comment" });
    expect(issue().body).toContain("- @bob asked for a rescan → scan queued");
    const rescanRequests = operations(mark);

    // 7. Ignore a field: an `ignore` job with the interface's payload is queued, and it opens the ignore PR, which
    // the tick's line then names (read the issue, edit it) in place of "being prepared".
    mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectHead();
    gh.expectIssues({ get: 2, update: 2 });
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    await edit(ticked(issue().body, box("ignore", cmRef, "/data/LOG_LEVEL")));
    await h.settled("test", 10);
    expect(gh.state.pulls.at(-1)).toMatchObject({ state: "open", head: { ref: `undrift/ignore/${target}` } });
    const ignorePr = gh.state.pulls.at(-1)!;
    expect(issue().body).toContain(
      `- @bob asked to ignore \`v1 ConfigMap ${ns}/app-config\` \`/data/LOG_LEVEL\` → #${ignorePr.number} ${ignorePr.html_url}`,
    );
    expect(issue().body).not.toContain("being prepared");
    expect(gh.state.pulls.at(-1)?.body).toContain("by `/data/LOG_LEVEL`, asked by @bob");
    const jobs = await h.redis.queues.scan("test").getJobs(["waiting", "active", "completed", "failed", "delayed"]);
    expect(jobs.filter((j) => j.name === IGNORE_JOB).map((j) => j.data)).toEqual([
      {
        installationId: gh.installationId,
        repo: "acme/gitops",
        target,
        cluster: "test",
        items: [{ apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "app-config", path: "/data/LOG_LEVEL" }],
        requestedBy: "bob",
      },
    ]);
    const ignoreRequests = operations(mark);

    // 8. mallory, who can only read, ticks codify: the box is unticked with a refusal, and nothing else happens.
    mark = github.requests.length;
    expectPermission("mallory", "read");
    gh.expectIssues({ update: 1, comment: 1 });
    const queued = await h.redis.queues.scan("test").count();
    await edit(ticked(issue().body, box("codify", cmRef)), "mallory");
    expect(issue().body).not.toContain("[x]");
    expect(gh.state.comments.at(-1)).toEqual({
      issue: 1,
      body: "@mallory: the dashboard's boxes need write access to acme/gitops; the box was unticked and nothing was done.",
    });
    expect(await h.redis.queues.scan("test").count()).toBe(queued);
    expect(gh.state.pulls).toHaveLength(3);
    const refusalRequests = operations(mark);

    // 9. An edit delivered twice with its id, and once more with another: one rescan, not three.
    mark = github.requests.length;
    expectPermission("bob", "write");
    gh.expectConfig(configText);
    gh.expectIssues({ get: 1, list: 1, update: 2 });
    gh.expectHead();
    gh.expectCheckRuns({ list: 1 });
    const before = issue().body;
    const after = ticked(before, box("rescan"));
    const payload = await edit(after, "bob", "delivery-1");
    expect((await h.deliver("issues", payload, { id: "delivery-1" })).status).toBe(200);
    expect((await h.deliver("issues", payload, { id: "delivery-2" })).status).toBe(200);
    const all = await h.settled("test", 12);
    expect(all.filter((j) => j.name === "dashboard")).toHaveLength(6);
    expect(issue().body.match(/asked for a rescan/g)).toHaveLength(2);

    // Everything the dashboard did is in the audit trail, with who asked.
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    const dashboard = audit.filter((a) => a.event.startsWith("dashboard-") || a.event === "refusal");
    expect(dashboard.map((a) => [a.event, a.actor])).toEqual([
      ["dashboard-request", "bob"],
      ["dashboard-codify", "bob"],
      ["dashboard-request", "bob"],
      ["dashboard-revert", "bob"],
      ["dashboard-request", "bob"],
      ["dashboard-snooze", "bob"],
      ["dashboard-request", "bob"],
      ["dashboard-rescan", "bob"],
      ["dashboard-request", "bob"],
      ["dashboard-ignore", "bob"],
      ["refusal", "mallory"],
      ["dashboard-request", "bob"],
      ["dashboard-rescan", "bob"],
    ]);
    expect(dashboard[1]).toMatchObject({
      fields: [`Deployment/${ns}/web:/spec/replicas`],
      url: codifyPr.html_url,
    });
    // GitHub requests per dashboard action, the app's and the worker's together (the note's figures):
    // a codify or revert of one field 11, a snooze 12 (with the scan it sets off), a rescan 9 (with its
    // scan), an ignore 15 (6 for the box, 9 for the ignore job opening its PR and naming it on the issue), a refusal 3.
    expect({
      snooze: snoozeRequests.length,
      rescan: rescanRequests.length,
      ignore: ignoreRequests.length,
      refusal: refusalRequests.length,
    }).toEqual({ snooze: 12, rescan: 9, ignore: 15, refusal: 3 });
    expect(refusalRequests).toEqual([
      "repos/get-collaborator-permission-level",
      "issues/update",
      "issues/create-comment",
    ]);
  });

  it("adds a later codify tick to the PR an earlier one opened, drops ticks whose drift is gone, and closes the PR once all of it is", {
    timeout: 120_000,
  }, async () => {
    s = scenario({ files: { "manifests/web.yaml": web, "manifests/config.yaml": config }, target: { mode: "warn" } });
    await s.applyGit();
    const ns = s.namespace;
    await kubectl(["-n", ns, "scale", "deployment", "web", "--replicas=4"]);
    await kubectl(["-n", ns, "set", "image", "deployment/web", "web=nginx:1.28"]);
    await kubectl(["-n", ns, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"debug"}}']);
    const commit = await commitRepo(s.repoDir);
    const configText = readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8");
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    const target = s.target;
    const webRef = { apiVersion: "apps/v1", kind: "Deployment", namespace: ns, name: "web" };
    const cmRef = { apiVersion: "v1", kind: "ConfigMap", namespace: ns, name: "app-config" };
    const box = (action: DashboardAction, ref?: typeof webRef, path?: string) =>
      boxId({ target, action, ...(ref ? { ref } : {}), ...(path ? { path } : {}) });
    const issue = () => gh.state.issues[0]!;
    const edit = async (after: string) => {
      const before = issue().body;
      issue().body = after;
      const payload = issuesEditedPayload(gh, { number: 1, before, after, sender: "bob" });
      expect((await h!.deliver("issues", payload)).status).toBe(200);
    };
    const codifyTick = () => {
      expectPermission("bob", "write");
      gh.expectConfig(configText);
      gh.expectHead();
      gh.expectIssues({ get: 1, update: 1 });
    };
    const edited = () =>
      gh.state.trees
        .at(-1)
        ?.tree.map((f) => f.content ?? "")
        .join("\n") ?? "";

    gh.expectToken();
    gh.expectConfig(configText);
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    await h.settled("test", 1);

    // 1. Codify the replicas: a PR with just them.
    codifyTick();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    await edit(ticked(issue().body, box("codify", webRef, "/spec/replicas")));
    await h.settled("test", 2);
    expect(edited()).toContain("replicas: 4");
    expect(edited()).not.toContain("debug");

    // 2. Then the ConfigMap: the same PR now carries both.
    let mark = github.requests.length;
    codifyTick();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, moveRef: 1, update: 1 });
    await edit(ticked(issue().body, box("codify", cmRef)));
    await h.settled("test", 3);
    expect(gh.state.pulls.filter((p) => p.state === "open")).toHaveLength(1);
    expect(edited()).toContain("replicas: 4");
    expect(edited()).toContain("LOG_LEVEL: debug");
    const secondTick = operations(mark).length;

    // 3. The replicas put back by hand, then the image ticked: the replicas leave the PR, and the issue says so.
    await kubectl(["-n", ns, "scale", "deployment", "web", "--replicas=2"]);
    codifyTick();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, moveRef: 1, update: 1 });
    const image = /`(\/spec\/template\/spec\/containers\/[^`]*\/image)`/.exec(issue().body)?.[1];
    await edit(ticked(issue().body, box("codify", webRef, image)));
    await h.settled("test", 4);
    expect(edited()).toContain("nginx:1.28");
    expect(edited()).toContain("LOG_LEVEL: debug");
    expect(edited()).not.toContain("replicas: 4");
    expect(issue().body).toContain(
      `Dropped from the codify pull request, no longer drifting: \`apps/v1 Deployment ${ns}/web\` \`/spec/replicas\``,
    );

    // 4. The rest put back by hand too: the next scan of this warn target closes the PR with a comment.
    await kubectl(["-n", ns, "set", "image", "deployment/web", "web=nginx:1.27"]);
    await kubectl(["-n", ns, "patch", "configmap", "app-config", "-p", '{"data":{"LOG_LEVEL":"info"}}']);
    mark = github.requests.length;
    gh.expectHead();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    gh.expectPulls({ list: 1, comment: 1, update: 1, deleteRef: 1 });
    await enqueueScan({
      queues: h.redis.queues,
      job: { installationId: gh.installationId, repo: "acme/gitops", target, cluster: "test", reason: "schedule" },
    });
    const [settledScan] = (await h.settled("test", 5)).slice(-1);
    expect(settledScan?.returnvalue.summary).toBe(`${target}: in sync (2 objects)`);
    expect(gh.state.pulls.filter((p) => p.state === "open")).toHaveLength(0);
    const pr = gh.state.pulls[0]!;
    expect(gh.state.comments.filter((c) => c.issue === pr.number).at(-1)?.body).toMatch(/gone/i);
    // Closing the dashboard's PR: 4 requests (lookup, comment, close, branch deleted) beside the scan's own 7.
    expect(operations(mark)).toEqual([
      "repos/get",
      "repos/get-branch",
      "issues/list-for-repo",
      "issues/create-comment",
      "issues/update",
      "pulls/list",
      "issues/create-comment",
      "pulls/update",
      "git/delete-ref",
      "checks/list-for-ref",
      "checks/update",
    ]);
    // A tick that adds to an open PR: 11 requests (permission, config, repository and branch for the head, the PR
    // lookup (which ensureDriftPr then reuses), tree, commit, branch moved, PR updated, issue read and written).
    expect(secondTick).toBe(11);
  });
});
