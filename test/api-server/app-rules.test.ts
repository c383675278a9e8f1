// Per-object rules and prune in the app, end to end: a warn-mode target whose
// rule heals ConfigMaps heals a drifted ConfigMap (Git's value back on the
// cluster) while its drifted Deployment is only reported, and the check run
// says which object went to which mode; a heal-mode target with prune true
// deletes a tracked stray ConfigMap, with prune preview leaves it and lists it,
// and past maxPrunePercent refuses; /metrics counts the prune and the refusal
// under the target's labels.
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
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
const configMaps = ["settings", "keep-a", "keep-b", "keep-c"]
  .map((name) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  LEVEL: info\n`)
  .join("---\n");

let h: AppHarness | undefined;
let s: Scenario | undefined;
let metrics: MetricsEndpoint | undefined;
afterEach(async () => {
  await metrics?.close();
  await h?.close();
  await s?.cleanup();
  h = s = metrics = undefined;
});

/** The target's prune counters on /metrics: deleted and refused (0 when the series is absent). */
async function pruneSeries(target: string): Promise<{ deleted: number; refused: number }> {
  metrics ??= await serveMetrics();
  const text = await metrics.scrape();
  const t = `repo="acme/gitops",target="${target}",cluster="test"`;
  return {
    deleted: sample(text, `undrift_prunes_total{${t},result="deleted"}`) ?? 0,
    refused: sample(text, `undrift_prunes_total{${t},result="refused"}`) ?? 0,
  };
}

const replicas = (namespace: string) =>
  kubectl(["-n", namespace, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"]);
const level = (namespace: string) =>
  kubectl(["-n", namespace, "get", "configmap", "settings", "-o", "jsonpath={.data.LEVEL}"]);
const exists = (namespace: string, name: string) =>
  kubectl(["-n", namespace, "get", "configmap", name, "-o", "name"]).then(
    () => true,
    () => false,
  );

/** A ConfigMap made by hand in the target's namespace, carrying the target's tracking label. */
async function stray(scenario: Scenario, name: string) {
  const object = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: scenario.namespace, labels: { "undrift.dev/target": scenario.target } },
  };
  await kubectl(["create", "-f", "-"], JSON.stringify(object));
}

/** Runs one scheduled scan of the scenario's target, with a new tracking issue and check run expected. */
async function scanOnce(scenario: Scenario) {
  const commit = await commitRepo(scenario.repoDir);
  h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
  const gh = fakeRepo({ github, head: commit });
  gh.expectToken();
  gh.expectApp();
  gh.expectHead();
  gh.expectTarball();
  gh.expectIssues({ list: 1, create: 1 });
  gh.expectCheckRuns({ list: 1, create: 1 });
  const job = { installationId: gh.installationId, repo: "acme/gitops", target: scenario.target, cluster: "test" };
  await enqueueScan({ queues: h.redis.queues, job: { ...job, reason: "schedule" } });
  h.startWorkers(["test"]);
  const [done] = await h.settled("test", 1);
  expect(done?.failedReason).toBeUndefined();
  return { gh, done, commit };
}

describe("per-object rules", () => {
  it("heals the objects a rule sends to heal and only reports the rest of a warn target", async () => {
    s = scenario({
      files: { "manifests/web.yaml": web, "manifests/config.yaml": configMaps },
      target: { mode: "warn", rules: [{ match: { kinds: ["ConfigMap"] }, mode: "heal" }] },
    });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=3"]);
    await kubectl(["-n", s.namespace, "patch", "configmap", "settings", "-p", '{"data":{"LEVEL":"debug"}}']);
    const { gh, done } = await scanOnce(s);
    expect(done?.returnvalue).toMatchObject({
      outcome: "scanned",
      summary: `${s.target}: 2 drifted, 3 in sync`,
      actions: [
        `healed v1 ConfigMap ${s.namespace}/settings`,
        "created issue #1",
        `created check run undrift/${s.target}`,
      ],
    });

    // The ConfigMap has Git's value again; the Deployment keeps the cluster's.
    expect(await level(s.namespace)).toBe("info");
    expect(await replicas(s.namespace)).toBe("3");
    const body = gh.state.issues[0]?.body ?? "";
    expect(body).toContain("### Healed");
    expect(body).toContain(`- \`v1 ConfigMap ${s.namespace}/settings\` (configured)`);
    expect(body).toContain(`Deployment ${s.namespace}/web`);
    const summary = gh.state.checkRuns[0]?.output.summary ?? "";
    expect(summary).not.toContain("not applied by the app");
    expect(summary).toContain("Per-object `rules` picked the mode of each object:");
    expect(summary).toContain(`- \`warn\`: \`apps/v1 Deployment ${s.namespace}/web\``);
    expect(summary).toContain(`- \`heal\`: \`v1 ConfigMap ${s.namespace}/settings\``);
    expect(summary).toContain(`Healed: Git was applied to 1 object(s): v1 ConfigMap ${s.namespace}/settings.`);
  });
});

describe("prune in heal", () => {
  it("keeps an object another target of the repository declares, naming it, and prunes the real stray", async () => {
    // The scenario's config is replaced below by one with both targets.
    s = scenario({ files: { "manifests/config.yaml": configMaps } });
    const api = `${s.target}-api`;
    const own = { name: s.target, cluster: "test", path: "manifests", namespace: s.namespace };
    const targets = [
      { ...own, mode: "heal", prune: true, maxPrunePercent: 50 },
      { name: api, cluster: "test", path: "api", namespace: s.namespace },
    ];
    s.write({
      ".github/undrift.yml": stringify({ targets }),
      "api/shared.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n  LEVEL: info\n",
    });
    await s.applyGit();
    // The other target's object, carrying this target's label too: the two tracking selectors overlap on it.
    await stray(s, "shared");
    await stray(s, "stray");
    const { gh, done } = await scanOnce(s);
    expect(done?.returnvalue).toMatchObject({
      outcome: "scanned",
      actions: expect.arrayContaining([`pruned v1 ConfigMap ${s.namespace}/stray`]),
    });
    expect(await exists(s.namespace, "shared")).toBe(true);
    expect(await exists(s.namespace, "stray")).toBe(false);
    const body = gh.state.issues[0]?.body ?? "";
    expect(body).toContain(`- \`v1 ConfigMap ${s.namespace}/shared\`: target ${api} declares it`);
  });

  it("deletes a tracked stray object when the target's prune is true", async () => {
    s = scenario({ files: { "manifests/config.yaml": configMaps }, target: { mode: "heal", prune: true } });
    await s.applyGit();
    await stray(s, "stray");
    const { gh, done, commit } = await scanOnce(s);
    expect(done?.returnvalue).toMatchObject({
      outcome: "scanned",
      summary: `${s.target}: 1 orphaned, 4 in sync`,
      actions: [
        `pruned v1 ConfigMap ${s.namespace}/stray`,
        "created issue #1",
        `created check run undrift/${s.target}`,
      ],
    });

    expect(await exists(s.namespace, "stray")).toBe(false);
    expect(await exists(s.namespace, "keep-a")).toBe(true);
    expect(await pruneSeries(s.target)).toEqual({ deleted: 1, refused: 0 });
    const body = gh.state.issues[0]?.body ?? "";
    expect(body).toContain(["### Pruned", "", "undrift deleted these orphans in this scan:", ""].join("\n"));
    expect(body).toContain(`- \`v1 ConfigMap ${s.namespace}/stray\``);
    expect(gh.state.checkRuns[0]?.output.summary).toContain(`Pruned 1 orphan(s): v1 ConfigMap ${s.namespace}/stray.`);
    const audit = await readAudit({ redis: h!.redis.redis, key: `${h!.redis.prefix}:audit` });
    expect(audit.find((a) => a.event === "prune")).toMatchObject({
      target: s.target,
      revision: commit.sha,
      objects: [`v1 ConfigMap ${s.namespace}/stray`],
    });
  });

  it("leaves a tracked stray object and lists it when prune is preview", async () => {
    s = scenario({ files: { "manifests/config.yaml": configMaps }, target: { mode: "heal", prune: "preview" } });
    await s.applyGit();
    await stray(s, "stray");
    const { gh, done } = await scanOnce(s);
    expect(done?.returnvalue).toMatchObject({
      outcome: "scanned",
      summary: `${s.target}: 1 orphaned, 4 in sync`,
      actions: ["created issue #1", `created check run undrift/${s.target}`],
    });

    expect(await exists(s.namespace, "stray")).toBe(true);
    // Listed as asked, not refused: no prune series moves.
    expect(await pruneSeries(s.target)).toEqual({ deleted: 0, refused: 0 });
    const body = gh.state.issues[0]?.body ?? "";
    expect(body).not.toContain("### Pruned");
    expect(body).toContain("### Not pruned");
    expect(body).toContain(`- \`v1 ConfigMap ${s.namespace}/stray\`: prune is preview: listed only`);
    expect(gh.state.checkRuns[0]?.output.summary).toContain(
      `Not pruned: v1 ConfigMap ${s.namespace}/stray (prune is preview: listed only).`,
    );
  });

  it("refuses to prune more than maxPrunePercent of the target, and counts the refusal", async () => {
    s = scenario({
      files: { "manifests/config.yaml": configMaps },
      target: { mode: "heal", prune: true, maxPrunePercent: 10 },
    });
    await s.applyGit();
    await stray(s, "stray");
    const { gh } = await scanOnce(s);
    // 1 of 5 tracked objects is 20%: the guard keeps it.
    expect(await exists(s.namespace, "stray")).toBe(true);
    expect(gh.state.issues[0]?.body ?? "").toContain("is more than maxPrunePercent 10%");
    expect(await pruneSeries(s.target)).toEqual({ deleted: 0, refused: 1 });
  });
});
