// Noise turned into a rule by pull request, end to end: an `ignore` job (what
// the tracking issue's ignore box enqueues) is run by the app's worker against
// the real test cluster; the ticked field becomes the narrowest
// ignoreDifferences rule in `.github/undrift.yml` (comments kept), proved by a
// second scan, on `undrift/ignore/<target>`, whose body says what it hides and
// who asked. The same job again writes nothing; another tick updates the same
// PR, merged into the same rule; the merged config no longer
// reports the field; a tick no rule can hide opens nothing and says why.
import type { Queue } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { IGNORE_JOB, type IgnoreJob } from "../../src/queue/jobs.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
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

const settings = `# undrift for the shop: comments and layout survive the ignore PR
schedule: 15m

targets:
  # the web app, warn only
  - name: TARGET # one folder
    cluster: test
    path: manifests
    namespace: $NS
    mode: warn   # report, never act
pullRequests:
  labels: [noise] # the board filters on it
`;

const config = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  LOG_LEVEL: info
`;

async function setUp(files: Record<string, string>) {
  s = scenario({ files });
  const text = settings.replace("TARGET", s.target).replaceAll("$NS", s.namespace);
  s.write({ ".github/undrift.yml": text });
  await s.applyGit();
  const commit = await commitRepo(s.repoDir);
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const gh = fakeRepo({ github, head: commit });
  h.startWorkers(["test"]);
  const queue = h.redis.queues.scan("test") as unknown as Queue;
  const ignore = (items: IgnoreJob["items"], requestedBy = "alice") => {
    const job: IgnoreJob = {
      installationId: gh.installationId,
      repo: "acme/gitops",
      target: s!.target,
      cluster: "test",
      items,
      requestedBy,
    };
    return queue.add(IGNORE_JOB, job, h!.redis.queues.scanJobOptions);
  };
  return { s, h, gh, text, commit, ignore };
}

/** The GitHub operations made since request `mark`, in order. */
const operations = (mark: number) => github.requests.slice(mark).map((r) => r.operationId ?? `${r.method} ${r.path}`);

describe("an ignore request", () => {
  it("opens undrift/ignore/<target> with the narrowest rule, proved, once; the merged config no longer reports the field", async () => {
    const { s, h, gh, text, commit, ignore } = await setUp({ "manifests/web.yaml": web });
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const replicas = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      namespace: s.namespace,
      name: "web",
      path: "/spec/replicas",
    };

    // 1. The first request: one PR with the rule, on the commit the scan read.
    let mark = github.requests.length;
    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1, labels: 1 });
    await ignore([replicas]);
    const [first] = await h.settled("test", 1);
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toMatchObject({ outcome: "created", number: 1 });

    const rule = [
      "    ignoreDifferences:",
      "      - group: apps",
      "        kind: Deployment",
      "        name: web",
      "        jsonPointers:",
      "          - /spec/replicas",
      "",
    ].join("\n");
    const edited = text.replace(
      "    mode: warn   # report, never act\n",
      `    mode: warn   # report, never act\n${rule}`,
    );
    expect(gh.state.trees).toEqual([
      { base_tree: commit.treeSha, tree: [expect.objectContaining({ path: ".github/undrift.yml", content: edited })] },
    ]);
    expect(gh.state.commits).toEqual([expect.objectContaining({ parents: [commit.sha] })]);
    const [pr] = gh.state.pulls;
    expect(pr).toMatchObject({
      number: 1,
      state: "open",
      head: { ref: `undrift/ignore/${s.target}` },
      labels: ["noise"],
    });
    const body = pr?.body ?? "";
    expect(body).toMatch(new RegExp(`^<!-- undrift:pr target=${s.target} mode=ignore fingerprint=[0-9a-f]+ -->\n`));
    expect(body).toContain(`- \`apps/v1 Deployment ${s.namespace}/web\`: \`/spec/replicas\``);
    expect(body).toContain("by `/spec/replicas`, asked by @alice");
    expect(body).toContain("scanned again");
    // GitHub requests of a first ignore PR: token, repository, branch, tarball (2), then the PR's 6.
    expect(operations(mark)).toEqual([
      "apps/create-installation-access-token",
      "repos/get",
      "repos/get-branch",
      "repos/download-tarball-archive",
      "GET /acme/gitops/legacy.tar.gz/" + commit.sha,
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "issues/add-labels",
    ]);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.find((a) => a.event === "ignore-pr-opened")).toMatchObject({
      actor: "alice",
      target: s.target,
      url: pr?.html_url,
      fields: [`Deployment/${s.namespace}/web:/spec/replicas`],
    });

    // 2. The same request again: the PR lookup, nothing written.
    mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1 });
    await ignore([replicas]);
    const [, second] = await h.settled("test", 2);
    expect(second?.returnvalue).toMatchObject({ outcome: "unchanged", number: 1 });
    expect(operations(mark)).toEqual(["repos/get", "repos/get-branch", "pulls/list"]);
    expect(gh.state.trees).toHaveLength(1);
    expect(gh.state.commits).toHaveLength(1);
    expect(gh.state.pulls).toHaveLength(1);

    // 3. Another tick, by someone else: the same PR, the field merged into the same rule, both askers named.
    await kubectl(["-n", s.namespace, "annotate", "deployment", "web", "team=checkout"]);
    mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, moveRef: 1, update: 1 });
    await ignore([{ ...replicas, path: "/metadata/annotations/team" }], "bob");
    const [, , third] = await h.settled("test", 3);
    expect(third?.returnvalue).toMatchObject({ outcome: "updated", number: 1 });
    expect(gh.state.pulls).toHaveLength(1);
    expect(gh.state.trees[1]?.tree[0]?.content).toBe(
      edited.replace(
        "          - /spec/replicas\n",
        "          - /spec/replicas\n          - /metadata/annotations/team\n",
      ),
    );
    expect(gh.state.commits[1]).toMatchObject({ parents: [commit.sha] });
    expect(gh.state.pulls[0]?.body).toContain("asked by @alice");
    expect(gh.state.pulls[0]?.body).toContain("by `/metadata/annotations/team`, asked by @bob");
    // GitHub requests of an update: the lookup, tree, commit, branch move, pull request edit.
    expect(operations(mark)).toEqual([
      "repos/get",
      "repos/get-branch",
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/update-ref",
      "pulls/update",
    ]);

    // 4. Merged: a scan with the PR's config no longer reports the fields, and the drift is still there.
    const before = await s.scanReport();
    expect(before.report.resources[0]?.changes.map((c) => c.path).sort()).toEqual([
      "/metadata/annotations/team",
      "/spec/replicas",
    ]);
    s.write({ ".github/undrift.yml": gh.state.trees[1]?.tree[0]?.content ?? "" });
    const after = await s.scanReport();
    expect(after.code).toBe(0);
    expect(after.report.summary).toMatchObject({ drifted: 0 });
    expect(await kubectl(["-n", s.namespace, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"])).toBe("4");
  });

  it("opens nothing for ticks no rule can hide, and says why", async () => {
    const { s, h, gh, ignore } = await setUp({ "manifests/web.yaml": web, "manifests/settings.yaml": config });
    await kubectl(["-n", s.namespace, "delete", "configmap", "settings"]);
    const mark = github.requests.length;
    gh.expectToken();
    gh.expectHead();
    gh.expectTarball();
    gh.expectPulls({ list: 1 });
    await ignore([
      { apiVersion: "v1", kind: "ConfigMap", namespace: s.namespace, name: "settings" },
      { apiVersion: "apps/v1", kind: "Deployment", namespace: s.namespace, name: "web", path: "/spec/paused" },
    ]);
    const [job] = await h.settled("test", 1);
    expect(job?.failedReason).toBeUndefined();
    expect(job?.returnvalue).toMatchObject({
      outcome: "refused",
      lines: [
        expect.stringMatching(/^Not ignored: `v1 ConfigMap .*\/settings`: the object is missing from the cluster/),
        expect.stringMatching(
          /^Not ignored: `\/spec\/paused` of `apps\/v1 Deployment .*\/web`: .* is not drift in the current scan/,
        ),
      ],
    });
    expect(gh.state.pulls).toEqual([]);
    expect(operations(mark).filter((o) => /^(git|pulls\/create)/.test(o))).toEqual([]);
    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.find((a) => a.event === "ignore-refused")).toMatchObject({
      actor: "alice",
      outcome: expect.stringContaining("missing from the cluster"),
    });
  });
});
