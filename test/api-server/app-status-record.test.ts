// What the worker keeps for the status page after a real scan: a warn-mode
// target with a Deployment scaled by hand and a Secret changed by hand is
// scanned by the app's worker against the test cluster, and the record names
// both objects, the fields, who changed them and the tracking issue, while no
// key the page reads holds the Secret's value, in Git or live.
import { afterEach, describe, expect, it } from "vitest";
import { enqueueScan } from "../../src/queue/enqueue-scan.ts";
import { statusHistory } from "../../src/state/status-history.ts";
import { fakeRepo } from "../helpers/app-github.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { useGitHubMock } from "../helpers/github-mock.ts";
import { webDeployment } from "../helpers/manifests.ts";
import { kubectl, type Scenario, scenario } from "../helpers/scenario.ts";

const github = useGitHubMock();
const GIT_SECRET = "git-secret-value-4e2b";
const LIVE_SECRET = "live-secret-value-8a0c";
const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\nstringData:\n  password: ${GIT_SECRET}\n`;

let h: AppHarness | undefined;
let s: Scenario | undefined;
afterEach(async () => {
  await h?.close();
  await s?.cleanup();
  h = s = undefined;
});

describe("the status page's record of a scan", () => {
  it("names the drifted objects, their fields and who changed them, and keeps no Secret value", async () => {
    s = scenario({
      files: { "manifests/web.yaml": webDeployment, "manifests/secret.yaml": secret },
      target: { mode: "warn" },
    });
    await s.applyGit();
    const ns = s.namespace;
    await kubectl(["-n", ns, "scale", "deployment", "web", "--replicas=4"]);
    await kubectl([
      "-n",
      ns,
      "patch",
      "secret",
      "db-credentials",
      "-p",
      JSON.stringify({ stringData: { password: LIVE_SECRET } }),
    ]);
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

    const rows = await statusHistory({ redis: h.redis.redis, prefix: h.redis.prefix }).read({
      installationId: gh.installationId,
    });
    expect(rows).toHaveLength(1);
    const { status, points } = rows[0]!;
    expect(status).toMatchObject({ repo: "acme/gitops", target: s.target, cluster: "test", state: "drifted" });
    expect(status.counts).toMatchObject({ drifted: 2, missing: 0, orphaned: 0 });
    expect(status.links.issue).toMatch(/^https:\/\/github\.com\/acme\/gitops\/issues\/\d+$/);
    const byName = Object.fromEntries(status.objects.map((o) => [`${o.kind} ${o.namespace}/${o.name}`, o]));
    expect(byName[`Deployment ${ns}/web`]?.changes).toEqual([
      // `kubectl scale` writes through the scale subresource as the manager `kubectl`.
      expect.objectContaining({ path: "/spec/replicas", manager: "kubectl" }),
    ]);
    expect(byName[`Secret ${ns}/db-credentials`]?.changes.map((c) => c.path)).toContain("/data/password");
    expect(points.map((p) => p[1])).toEqual([2]);

    // Every key the page reads, as Redis holds it: names and paths, no value of the Secret in any spelling.
    const stored = JSON.stringify([
      await h.redis.redis.hgetall(`${h.redis.prefix}:status:${gh.installationId}`),
      ...(await Promise.all(
        (
          await h.redis.redis.keys(`${h.redis.prefix}:status-history:*`)
        ).map((k) => h!.redis.redis.zrange(k, "0", "-1")),
      )),
    ]);
    for (const value of [GIT_SECRET, LIVE_SECRET]) {
      expect(stored).not.toContain(value);
      expect(stored).not.toContain(Buffer.from(value).toString("base64"));
    }
  });
});
