// A revert-mode target end to end: scanned by the app's worker against the
// real test cluster, its drift becomes one pull request on
// `undrift/revert/<target>` whose commit adds the record file
// `.undrift/revert/<target>.yaml`. Merging it (the webhook) queues a job that
// scans again and applies what the record approved and nothing else, then
// comments on the PR; drift that appeared after the PR opened is reported,
// not applied; closing it unmerged applies nothing.
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import type { AppHarness } from "../helpers/app-harness.ts";
import { pullRequestClosedPayload } from "../helpers/app-payloads.ts";
import { mergeRevertPr, openRevertPr } from "../helpers/app-revert-pr.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
// The shared Deployment with a bare replicas line, as this file has always committed it.
const web = webDeployment.replace(" # Git says two", "");
const settings = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: info
`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

/** The scenario with web scaled to 4, its first scan run: the revert PR #1 is open. */
function openScaledPr() {
  return openRevertPr({
    github,
    files: { "manifests/web.yaml": web, "manifests/settings.yaml": settings },
    drift: (s) => kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]),
    onOpen: (parts) => {
      s = parts.s;
      h = parts.h;
    },
  });
}

const replicas = (ns: string) => kubectl(["-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"]);
const level = (ns: string) => kubectl(["-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.level}"]);

describe("a revert-mode target", () => {
  it("opens one pull request with the record, and on merge reverts the cluster and comments what it applied", async () => {
    const ctx = await openScaledPr();
    const { s, gh, first } = ctx;
    expect(first?.returnvalue).toMatchObject({
      actions: ["created pull request #1", `created check run undrift/${s.target}`],
    });
    // The PR adds the record file, masked values only, and nothing else.
    const file = `.undrift/revert/${s.target}.yaml`;
    expect(gh.state.trees[0]?.tree).toEqual([expect.objectContaining({ path: file, mode: "100644" })]);
    const record = parse(gh.state.trees[0]?.tree[0]?.content ?? "");
    expect(record).toMatchObject({
      apiVersion: "undrift.dev/v1",
      kind: "RevertRecord",
      target: s.target,
      cluster: "test",
      revision: gh.head.sha,
      objects: [
        {
          kind: "Deployment",
          namespace: s.namespace,
          name: "web",
          status: "drifted",
          changes: [expect.objectContaining({ path: "/spec/replicas", desired: 2, live: 4 })],
        },
      ],
    });
    const [pr] = gh.state.pulls;
    expect(pr).toMatchObject({ number: 1, state: "open", head: { ref: `undrift/revert/${s.target}` } });
    expect(pr?.body).toMatch(new RegExp(`^<!-- undrift:pr target=${s.target} mode=revert fingerprint=[0-9a-f]+ -->\n`));
    expect(pr?.body).toContain("**What merging will do**");
    expect(pr?.body).toContain("`/spec/replicas`");
    expect(gh.state.checkRuns[0]?.output.summary).toContain("Pull request: #1");
    // Nothing applied yet.
    expect(await replicas(s.namespace)).toBe("4");

    // The same drift: nothing written.
    const mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1 });
    gh.expectCheckRuns({ list: 1 });
    await enqueueScan({ queues: ctx.h.redis.queues, job: { ...first!.data, reason: "schedule" } });
    await ctx.h.settled("test", 2);
    expect(github.requests.slice(mark).every((r) => r.method === "GET")).toBe(true);

    // Merged: the cluster follows Git again, and the PR says what was applied.
    const merge = await mergeRevertPr(ctx, 3);
    expect(merge?.failedReason).toBeUndefined();
    expect(merge?.returnvalue).toMatchObject({
      outcome: "applied",
      pullRequest: 1,
      applied: [`configured apps/v1 Deployment ${s.namespace}/web`],
      skipped: [],
      actions: ["created comment on pull request #1"],
    });
    expect(await replicas(s.namespace)).toBe("2");
    expect(gh.state.comments).toEqual([
      { issue: 1, body: expect.stringContaining(`undrift:revert-merge target=${s.target}`) },
    ]);
    const comment = gh.state.comments[0]?.body ?? "";
    expect(comment).toContain(`\`apps/v1 Deployment ${s.namespace}/web\`: configured \`/spec/replicas\``);
    expect(comment).toContain("**Health:**");
    expect(comment).not.toContain("**Skipped**");
  });

  it("says in the pull request which fields ignoreDifferences keeps live, and keeps them on merge", async () => {
    const ctx = await openRevertPr({
      github,
      files: { "manifests/web.yaml": web },
      target: { ignoreDifferences: [{ group: "apps", kind: "Deployment", jsonPointers: ["/spec/replicas"] }] },
      drift: async (s) => {
        await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
        await kubectl(["-n", s.namespace, "set", "image", "deployment/web", "web=nginx:1.28"]);
      },
      onOpen: (parts) => {
        s = parts.s;
        h = parts.h;
      },
    });
    const body = ctx.gh.state.pulls[0]?.body ?? "";
    expect(body).toContain(
      `- \`apps/v1 Deployment ${ctx.s.namespace}/web\` (drifted, re-apply Git's fields): \`/spec/template/spec/containers/0/image\`; kept live /spec/replicas (ignoreDifferences)`,
    );
    const merge = await mergeRevertPr(ctx);
    expect(merge?.failedReason).toBeUndefined();
    expect(await replicas(ctx.s.namespace)).toBe("4");
    const image = "jsonpath={.spec.template.spec.containers[0].image}";
    expect(await kubectl(["-n", ctx.s.namespace, "get", "deployment", "web", "-o", image])).toBe("nginx:1.27");
  });

  it("applies only what the record approved: drift that appeared after the pull request opened is reported, not applied", async () => {
    const ctx = await openScaledPr();
    const { s } = ctx;
    // After the PR opened: a new drift on the ConfigMap.
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
    const merge = await mergeRevertPr(ctx);
    expect(merge?.failedReason).toBeUndefined();
    expect(merge?.returnvalue).toMatchObject({
      applied: [`configured apps/v1 Deployment ${s.namespace}/web`],
      skipped: [`v1 ConfigMap ${s.namespace}/settings`],
    });
    expect(await replicas(s.namespace)).toBe("2");
    expect(await level(s.namespace)).toBe("debug");
    const comment = ctx.gh.state.comments[0]?.body ?? "";
    expect(comment).toContain("**Skipped**");
    expect(comment).toContain(
      `\`v1 ConfigMap ${s.namespace}/settings\` (drifted): appeared after the pull request was opened; not applied unseen`,
    );
  });

  it("does not apply an object whose drift changed after the pull request opened", async () => {
    const ctx = await openScaledPr();
    const { s } = ctx;
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=5"]);
    const merge = await mergeRevertPr(ctx);
    expect(merge?.returnvalue).toMatchObject({ applied: [], skipped: [`apps/v1 Deployment ${s.namespace}/web`] });
    expect(await replicas(s.namespace)).toBe("5");
    const comment = ctx.gh.state.comments[0]?.body ?? "";
    expect(comment).toContain("**Applied**\n\n- nothing");
    expect(comment).toContain(
      `\`apps/v1 Deployment ${s.namespace}/web\` (drifted): its drift changed after the pull request was opened; not applied unseen`,
    );
  });

  it("applies nothing when the pull request is closed without merging", async () => {
    const ctx = await openScaledPr();
    const { s, h, gh } = ctx;
    const version = () =>
      kubectl(["-n", s.namespace, "get", "deployment", "web", "-o", "jsonpath={.metadata.resourceVersion}"]);
    const before = await version();
    const mark = github.requests.length;
    const delivered = await h.deliver(
      "pull_request",
      pullRequestClosedPayload(gh, { number: 1, headRef: `undrift/revert/${s.target}`, merged: false }),
    );
    expect(delivered.status).toBe(200);
    const counts = await h.redis.queues.scan("test").getJobCounts("waiting", "active", "delayed", "completed");
    expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, completed: 1 });
    expect(github.requests.slice(mark)).toEqual([]);
    expect(await version()).toBe(before);
    expect(await replicas(s.namespace)).toBe("4");
  });
});
