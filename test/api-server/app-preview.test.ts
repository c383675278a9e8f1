// Pull request previews end to end: a signed `pull_request` webhook, the
// preview job in the app's worker against the real test cluster, and the
// sticky comment and `undrift/preview` check run on the OpenAPI-checked mock.
// Each test names the GitHub requests it expects, so their counts are part of
// what is tested.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type FakeRepo, fakeRepo, type RepoCommit } from "../helpers/app-github.ts";
import { type FakePullRequest, fakePullRequest } from "../helpers/app-github-preview.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

const configMap = (name: string, extra = "") => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}${extra}
data:
  key: value
`;

/** Opens the harness and the pull request `#7` from `base` to `head` of the scenario's repository. */
async function openPr(base: RepoCommit, head: RepoCommit): Promise<{ gh: FakeRepo; pr: FakePullRequest }> {
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const gh = fakeRepo({ github, head: base });
  const pr = fakePullRequest({ github, gh, number: 7, base, head });
  return { gh, pr };
}

/** The requests of one preview of `pr.head` that finds something to show, the first time (no comment yet) or later. */
function expectPreview(
  gh: FakeRepo,
  pr: FakePullRequest,
  options: { first: boolean; baseCached?: boolean; behindBy?: number },
) {
  const config = readFileSync(join(s?.repoDir ?? "", ".github/undrift.yml"), "utf8");
  if (options.first) gh.expectToken();
  gh.expectConfig(config, { ref: pr.head.sha });
  pr.expectCompare(1, { behindBy: options.behindBy ?? 0 });
  gh.expectTarball(pr.head);
  if (!options.baseCached) gh.expectTarball(pr.base);
  pr.expectComments(options.first ? { list: 1, create: 1 } : { list: 1, update: 1 });
  gh.head = pr.head;
  gh.expectCheckRuns({ list: 1, create: 1 });
}

/** Every request body sent to GitHub in this test, as text. */
function sentBodies(): string {
  return github.requests.map((r) => JSON.stringify(r.json ?? "")).join("\n");
}

describe("a pull request preview", () => {
  it("shows a changed replica count against live, neutral, and edits the same comment on the next push", async () => {
    s = scenario({ files: { "manifests/web.yaml": web } });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/web.yaml": web.replace("replicas: 2 # Git says two", "replicas: 3") });
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    // 1. Opened: one comment, one check run on the head.
    expectPreview(gh, pr, { first: true });
    expect((await h!.deliver("pull_request", pr.payload("opened"))).status).toBe(200);
    h!.startWorkers(["test"]);
    const [first] = await h!.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toMatchObject({
      outcome: "previewed",
      head: head.sha,
      changed: [s.target],
      actions: ["created preview part 1 on #7", "created check run undrift/preview"],
    });
    expect(pr.comments).toHaveLength(1);
    const body = pr.comments[0]?.body ?? "";
    expect(body).toMatch(/^<!-- undrift:preview pr=7 part=1 digest=[0-9a-f]+ -->\n/);
    expect(body).toContain("| `/spec/replicas` | `3` | `2` |");
    expect(body).toContain("-  replicas: 2\n+  replicas: 3\n");
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(gh.state.checkRuns[0]).toMatchObject({
      name: "undrift/preview",
      head_sha: head.sha,
      status: "completed",
      conclusion: "neutral",
    });
    const firstCount = github.requests.length;

    // 2. A second push: the same comment is edited (PATCH), never a second POST; a check run on the new head.
    let mark = github.requests.length;
    s.write({ "manifests/web.yaml": web.replace("replicas: 2 # Git says two", "replicas: 5") });
    pr.head = await commitRepo(s.repoDir);
    expectPreview(gh, pr, { first: false, baseCached: true });
    expect((await h!.deliver("pull_request", pr.payload("synchronize"))).status).toBe(200);
    const jobs = await h!.settled("test", 2);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({
      actions: ["updated preview part 1 on #7", "created check run undrift/preview"],
    });
    expect(pr.comments).toHaveLength(1);
    expect(pr.comments[0]?.body).toContain("+  replicas: 5\n");
    const second = github.requests.slice(mark);
    expect(second.filter((r) => r.method !== "GET").map((r) => r.operationId)).toEqual([
      "issues/update-comment",
      "checks/create",
    ]);

    // 3. The same push delivered again changes nothing and asks GitHub nothing.
    mark = github.requests.length;
    expect((await h!.deliver("pull_request", pr.payload("synchronize"))).status).toBe(200);
    expect(github.requests.slice(mark)).toEqual([]);
    expect(await h!.redis.queues.scan("test").getWaitingCount()).toBe(0);

    // Request counts (reported in the README): token, config, compare, 2 tarballs (2 requests each), list and post the comment, list and create the check.
    expect(firstCount).toBe(11);
    expect(second).toHaveLength(8);
  });

  it("shows an added manifest created, a deleted one would be deleted, and an opted-out one kept (prune: true)", async () => {
    s = scenario({
      files: {
        "manifests/old.yaml": configMap("old"),
        "manifests/pinned.yaml": configMap("pinned", "\n  annotations: {undrift.dev/prune: disabled}"),
        "manifests/stay.yaml": configMap("stay"),
      },
      target: { prune: true, maxPrunePercent: 100 },
    });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/new.yaml": configMap("new") });
    rmSync(join(s.repoDir, "manifests/old.yaml"));
    rmSync(join(s.repoDir, "manifests/pinned.yaml"));
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    expectPreview(gh, pr, { first: true });
    await h!.deliver("pull_request", pr.payload("opened"));
    h!.startWorkers(["test"]);
    const [job] = await h!.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    const body = pr.comments[0]?.body ?? "";
    expect(body).toContain("<b>create</b> <code>v1 ConfigMap");
    expect(body).toContain(`| \`v1 ConfigMap ${s.namespace}/old\` | **would be deleted** |`);
    expect(body).toMatch(
      new RegExp(`\\| \`v1 ConfigMap ${s.namespace}/pinned\` \\| \\*\\*kept\\*\\* \\| .*undrift.dev/prune: disabled`),
    );
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "neutral" });
  });

  it("shows a deleted manifest as would be orphaned when prune is false, and says head is behind its base branch", async () => {
    s = scenario({
      files: { "manifests/old.yaml": configMap("old"), "manifests/stay.yaml": configMap("stay") },
      target: { prune: false },
    });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    rmSync(join(s.repoDir, "manifests/old.yaml"));
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    expectPreview(gh, pr, { first: true, behindBy: 2 });
    await h!.deliver("pull_request", pr.payload("opened"));
    h!.startWorkers(["test"]);
    await h!.settled("test", 1);
    expect(pr.comments[0]?.body).toContain(`| \`v1 ConfigMap ${s.namespace}/old\` | **would be orphaned** |`);
    expect(pr.comments[0]?.body).toContain("This branch is 2 commits behind its base branch.");
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "neutral" });
  });

  it("refuses the prune of a pull request that empties a target, and fails the check", async () => {
    s = scenario({
      files: { "manifests/a.yaml": configMap("a"), "manifests/b.yaml": configMap("b") },
      target: { prune: true },
    });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    rmSync(join(s.repoDir, "manifests/a.yaml"));
    s.write({ "manifests/b.yaml": "# nothing left\n" });
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    expectPreview(gh, pr, { first: true });
    await h!.deliver("pull_request", pr.payload("opened"));
    h!.startWorkers(["test"]);
    await h!.settled("test", 1);
    const body = pr.comments[0]?.body ?? "";
    expect(body).toContain("**Prune refused**");
    expect(body).not.toContain("**would be deleted**");
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure" });
    expect(gh.state.checkRuns[0]?.output.title).toContain("Prune refused");
  });

  it("masks a changed Secret: its values are in no request sent to GitHub", async () => {
    const secret = (value: string) => `apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: ${value}
`;
    s = scenario({ files: { "manifests/db.yaml": secret("hunter2-before") } });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/db.yaml": secret("hunter2-after") });
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    expectPreview(gh, pr, { first: true });
    await h!.deliver("pull_request", pr.payload("opened"));
    h!.startWorkers(["test"]);
    const [job] = await h!.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    const body = pr.comments[0]?.body ?? "";
    expect(body).toContain(`<b>change</b> <code>v1 Secret ${s.namespace}/db</code>`);
    expect(body).toContain("***");
    const sent = sentBodies();
    for (const value of ["hunter2-before", "hunter2-after", btoa("hunter2-before"), btoa("hunter2-after")]) {
      expect(sent).not.toContain(value);
    }
  });

  it("shows a broken kustomization's error with its file, and still previews the other target", async () => {
    s = scenario({ files: { "manifests/web.yaml": web } });
    const other = `${s.target}-k`;
    const config = {
      targets: [
        { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace },
        { name: other, cluster: "test", path: "kustomized", namespace: s.namespace, render: "kustomize" },
      ],
    };
    s.write({
      ".github/undrift.yml": stringify(config),
      "kustomized/kustomization.yaml": "resources: [cm.yaml]\n",
      "kustomized/cm.yaml": configMap("k"),
    });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({
      "manifests/web.yaml": web.replace("replicas: 2 # Git says two", "replicas: 3"),
      "kustomized/kustomization.yaml": "resources: [cm.yaml, missing.yaml]\n",
    });
    const head = await commitRepo(s.repoDir);
    const { gh, pr } = await openPr(base, head);

    expectPreview(gh, pr, { first: true });
    await h!.deliver("pull_request", pr.payload("opened"));
    h!.startWorkers(["test"]);
    const [job] = await h!.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    expect(job?.returnvalue).toMatchObject({ changed: [s.target, other].sort() });
    const body = pr.comments[0]?.body ?? "";
    expect(body).toContain("**Head does not render** at `kustomized/kustomization.yaml");
    expect(body).toContain("missing.yaml");
    expect(body).toContain("| `/spec/replicas` | `3` | `2` |");
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure" });
  });
});
