// A heal-mode target end to end: the scan applies Git at once (fields changed
// by hand pass to undrift first), and the tracking issue says what was healed,
// which fields, who had changed them. A "controller" (its own field manager)
// that changes the same field back before every scan is a fight: after three
// heals within the hour the next scan leaves that field alone, and undrift opens
// the ignore pull request whose rule ends the fight (by the controller's field
// manager), linked from the issue. /metrics counts
// each heal and the fight under the target's labels.
import { afterEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { readAudit } from "../../src/state/audit-log.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment as web } from "../helpers/manifests.ts";
import { type MetricsEndpoint, sample, serveMetrics } from "../helpers/metrics.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();

let h: AppHarness | undefined;
let s: Scenario | undefined;
let metrics: MetricsEndpoint | undefined;
afterEach(async () => {
  await metrics?.close();
  await h?.close();
  await s?.cleanup();
  h = s = metrics = undefined;
});

/** The target's heal counters on /metrics: healed, failed, fights (0 when the series is absent). */
async function healSeries(target: string): Promise<{ healed: number; failed: number; fights: number }> {
  metrics ??= await serveMetrics();
  const text = await metrics.scrape();
  const t = `repo="acme/gitops",target="${target}",cluster="test"`;
  return {
    healed: sample(text, `undrift_heals_total{${t},result="healed"}`) ?? 0,
    failed: sample(text, `undrift_heals_total{${t},result="failed"}`) ?? 0,
    fights: sample(text, `undrift_heal_fights_total{${t}}`) ?? 0,
  };
}

const replicas = (namespace: string) =>
  kubectl(["-n", namespace, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"]);

describe("a heal-mode target", () => {
  it("applies Git at once and lists what it healed on the tracking issue", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "heal" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=3"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    gh.expectToken();
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    h.startWorkers(["test"]);
    const [done] = await h.settled("test", 1);
    expect(done?.failedReason).toBeUndefined();
    expect(done?.returnvalue).toMatchObject({
      outcome: "scanned",
      summary: `${s.target}: 1 drifted`,
      actions: [
        `healed apps/v1 Deployment ${s.namespace}/web`,
        "created issue #1",
        `created check run undrift/${s.target}`,
      ],
    });

    // Git's value is back on the cluster.
    expect(await replicas(s.namespace)).toBe("2");
    expect(await healSeries(s.target)).toEqual({ healed: 1, failed: 0, fights: 0 });
    const [issue] = gh.state.issues;
    expect(issue?.state).toBe("open");
    expect(issue?.body).toContain("### Healed");
    expect(issue?.body).toMatch(
      new RegExp(
        `- \`apps/v1 Deployment ${s.namespace}/web\` \\(configured\\): \`/spec/replicas\` \\(changed by \`kubectl[^\`]*\`\\)`,
      ),
    );
    // Heal's report is the target's dashboard too: boxes for what it reports, and a rescan.
    expect(issue?.body).toContain("## Act on this drift");
    expect(issue?.body).toMatch(/- \[ \] \*\*rescan now\*\* <!-- undrift:box action=rescan id=[0-9a-f]+ -->/);
    const summary = gh.state.checkRuns[0]?.output.summary ?? "";
    expect(summary).not.toContain("not active");
    expect(summary).toContain(`Healed: Git was applied to 1 object(s): apps/v1 Deployment ${s.namespace}/web.`);
    expect(summary).toContain("Tracking issue: #1");

    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.find((a) => a.event === "heal")).toMatchObject({
      target: s.target,
      cluster: "test",
      revision: commit.sha,
      objects: [`apps/v1 Deployment ${s.namespace}/web`],
      fields: [`Deployment/${s.namespace}/web:/spec/replicas`],
      managers: [expect.stringMatching(/^kubectl/)],
      actor: "undrift",
    });
  });

  it("stops healing a field a controller keeps changing back, and opens the ignore pull request that ends the fight", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "heal", force: true } });
    await s.applyGit();
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });
    const fight = () =>
      kubectl([
        "-n",
        s!.namespace,
        "patch",
        "deployment",
        "web",
        "--field-manager=fighting-controller",
        "-p",
        '{"spec":{"replicas":5}}',
      ]);
    const job = { installationId: gh.installationId, repo: "acme/gitops", target: s.target, cluster: "test" };
    h.startWorkers(["test"]);

    // Three heals: each time the controller has set its value again, and each time Git's comes back.
    for (const n of [1, 2, 3]) {
      await fight();
      if (n === 1) {
        gh.expectToken();
        gh.expectApp();
        gh.expectTarball();
      }
      gh.expectHead();
      gh.expectIssues(n === 1 ? { list: 1, create: 1 } : { list: 1, update: 1 });
      gh.expectCheckRuns(n === 1 ? { list: 1, create: 1 } : { list: 1, update: 1 });
      await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
      const jobs = await h.settled("test", n);
      expect(jobs.at(-1)?.failedReason).toBeUndefined();
      expect(jobs.at(-1)?.returnvalue.actions[0]).toBe(`healed apps/v1 Deployment ${s.namespace}/web`);
      expect(await replicas(s.namespace)).toBe("2");
      expect(await healSeries(s.target)).toEqual({ healed: n, failed: 0, fights: 0 });
      expect(gh.state.issues[0]?.body).toContain(
        `\`/spec/replicas\` (changed by \`fighting-controller\`), healed ${n} time(s) within 1h`,
      );
    }

    // The fourth time it is a fight: the field is left to the controller, and an ignore PR (proved by a second
    // scan) gives the controller the field; the issue links to it.
    await fight();
    const mark = github.requests.length;
    gh.expectHead();
    gh.expectPulls({ list: 1, tree: 1, commit: 1, ref: 1, create: 1 });
    gh.expectIssues({ list: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
    const jobs = await h.settled("test", 4);
    expect(jobs.at(-1)?.failedReason).toBeUndefined();
    expect(jobs.at(-1)?.returnvalue.actions).toEqual([
      `stopped healing /spec/replicas of apps/v1 Deployment ${s.namespace}/web`,
      "created pull request #2",
      "updated issue #1",
      `updated check run undrift/${s.target}`,
    ]);
    expect(await replicas(s.namespace)).toBe("5");
    // The fight is counted once; the field left alone is no heal.
    expect(await healSeries(s.target)).toEqual({ healed: 3, failed: 0, fights: 1 });
    const pr = gh.state.pulls[0];
    expect(pr).toMatchObject({ number: 2, head: { ref: `undrift/ignore/${s.target}` } });
    expect(gh.state.trees[0]?.tree[0]?.path).toBe(".github/undrift.yml");
    expect(gh.state.trees[0]?.tree[0]?.content).toContain(
      [
        "    ignoreDifferences:",
        "      - group: apps",
        "        kind: Deployment",
        "        name: web",
        "        managedFieldsManagers:",
        "          - fighting-controller",
      ].join("\n"),
    );
    expect(pr?.body).toContain("by every field `fighting-controller` writes, asked by undrift (heal fight)");
    expect(pr?.body).toContain(`- \`apps/v1 Deployment ${s.namespace}/web\`: \`/spec/replicas\``);
    const body = gh.state.issues[0]?.body ?? "";
    expect(body).not.toContain("### Healed");
    expect(body).toContain(`### Healing stopped: a fight over \`apps/v1 Deployment ${s.namespace}/web\``);
    expect(body).toContain("`/spec/replicas` (changed back by `fighting-controller` after 3 heals)");
    expect(body).toContain(`pull request #2 (${pr?.html_url}) adds the \`ignoreDifferences\` rule`);
    // GitHub requests the fight's ignore PR adds to the scan: the PR lookup, tree, commit, branch, PR.
    expect(
      github.requests
        .slice(mark)
        .map((r) => r.operationId)
        .filter((o) => /^(pulls|git)\//.test(o ?? "")),
    ).toEqual(["pulls/list", "git/create-tree", "git/create-commit", "git/create-ref", "pulls/create"]);
    expect(gh.state.checkRuns[0]?.output.summary).toContain(
      "Healing stopped for `/spec/replicas` (changed back by `fighting-controller`) of apps/v1 Deployment",
    );
    expect(gh.state.checkRuns[0]?.output.summary).toContain("pull request #2 adds the `ignoreDifferences` rule");

    const audit = await readAudit({ redis: h.redis.redis, key: `${h.redis.prefix}:audit` });
    expect(audit.filter((a) => a.event === "heal")).toHaveLength(3);
    expect(audit.find((a) => a.event === "heal-stopped")).toMatchObject({
      fields: [`Deployment/${s.namespace}/web:/spec/replicas`],
      managers: ["fighting-controller"],
    });
  });
});
