// A codify-mode target end to end: installed by webhook, scanned by the app's
// worker against the real test cluster, its drift becomes one pull request on
// `undrift/codify/<target>` whose commit edits the manifest (comment kept) on
// the commit the scan read, with the report in its body, labels and reviewers
// from the config. The same drift again writes nothing; a changed drift
// updates the same PR; drift gone closes it with a comment.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { fakeRepo } from "../helpers/app-github.ts";
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

describe("a codify-mode target", () => {
  it("opens one pull request that edits Git to match the cluster, and keeps it in step with the drift", async () => {
    s = scenario({ files: { "manifests/web.yaml": web } });
    const configText = stringify({
      targets: [{ name: s.target, cluster: "test", path: "manifests", namespace: s.namespace, mode: "codify" }],
      pullRequests: { labels: ["drift"], reviewers: ["alice"] },
    });
    s.write({ ".github/undrift.yml": configText });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    const branch = `undrift/codify/${s.target}`;

    // 1. Installed: the first scan opens the PR.
    gh.expectToken();
    gh.expectConfig(configText);
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1, labels: 1, reviewers: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"]);
    const [first] = await h.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toMatchObject({
      actions: ["created pull request #1", `created check run undrift/${s.target}`],
    });

    expect(gh.state.trees).toEqual([
      { base_tree: commit.treeSha, tree: [expect.objectContaining({ path: "manifests/web.yaml", mode: "100644" })] },
    ]);
    expect(gh.state.trees[0]?.tree[0]?.content).toBe(
      web.replace("replicas: 2 # Git says two", "replicas: 4 # Git says two"),
    );
    expect(gh.state.commits).toEqual([expect.objectContaining({ parents: [commit.sha] })]);
    const [pr] = gh.state.pulls;
    expect(pr).toMatchObject({
      number: 1,
      state: "open",
      head: { ref: branch },
      base: { ref: "main" },
      labels: ["drift"],
      reviewers: ["alice"],
    });
    expect(pr?.body).toMatch(new RegExp(`^<!-- undrift:pr target=${s.target} mode=codify fingerprint=[0-9a-f]+ -->\n`));
    expect(pr?.body).toContain("`manifests/web.yaml`");
    expect(pr?.body).toContain("/spec/replicas");
    expect(pr?.body).toContain("kubectl");
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure", output: { title: `${s.target}: 1 drifted` } });
    expect(gh.state.checkRuns[0]?.output.summary).toContain("Pull request: #1");
    // N+6 at most for N changed files: list, tree (inline), commit, branch, PR, labels, reviewers.
    const prRequests = github.requests.filter((r) => /^(pulls|git|issues\/add-labels)/.test(r.operationId ?? ""));
    expect(prRequests.map((r) => r.operationId)).toEqual([
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "issues/add-labels",
      "pulls/request-reviewers",
    ]);

    // 2. The same drift: nothing written.
    let mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    await h.settled("test", 2);
    expect(github.requests.slice(mark).map((r) => [r.method, r.status])).toEqual([
      ["GET", 304],
      ["GET", 304],
      ["GET", 200],
      ["GET", 200],
    ]);

    // 3. The drift changes: the same PR gets a new commit and body.
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=5"]);
    mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, moveRef: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    const [, , third] = await h.settled("test", 3);
    expect(third?.returnvalue).toMatchObject({
      actions: ["updated pull request #1", `updated check run undrift/${s.target}`],
    });
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.trees[1]?.tree[0]?.content).toContain("replicas: 5 # Git says two");
    expect(gh.state.commits).toHaveLength(2);
    expect(gh.state.refs.get(`heads/${branch}`)).toBeDefined();

    // 4. The drift is gone: the PR is closed with a comment, its branch deleted.
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    gh.expectHead();
    gh.expectPulls({ list: 1, comment: 1, update: 1, deleteRef: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    const jobs = await h.settled("test", 4);
    expect(jobs.at(-1)?.returnvalue).toMatchObject({
      actions: ["closed pull request #1", `updated check run undrift/${s.target}`],
    });
    expect(gh.state.pulls[0]?.state).toBe("closed");
    expect(gh.state.comments).toEqual([{ issue: 1, body: expect.stringContaining("is gone") }]);
    expect(gh.state.refs.has(`heads/${branch}`)).toBe(false);
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "success" });
  });
});
