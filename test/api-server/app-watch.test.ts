// A target the worker watches, end to end: after the first scan, a kubectl
// edit of one of its objects is reported without anyone asking for a scan:
// the cluster's watch queues the target's scan (reason `watch`) and its check
// run and tracking issue follow the edit. Nothing but the edit prompts it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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

describe("a watched target", () => {
  it("reports a kubectl edit in its check run and tracking issue, with no scan asked for", async () => {
    s = scenario({ files: { "manifests/web.yaml": web }, target: { mode: "warn" } });
    await s.applyGit();
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=4"]);
    const commit = await commitRepo(s.repoDir);
    h = await openAppHarness({ clusters: { test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] } } });
    const gh = fakeRepo({ github, head: commit });

    // 1. Installed: the first scan finds the drift, and leaves the target's kinds watched.
    gh.expectToken();
    gh.expectConfig(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8"));
    gh.expectApp();
    gh.expectHead();
    gh.expectTarball();
    gh.expectIssues({ list: 1, create: 1 });
    gh.expectCheckRuns({ list: 1, create: 1 });
    expect((await h.deliver("installation", installationPayload(gh, "created"))).status).toBe(200);
    h.startWorkers(["test"], { watch: true });
    const [first] = await h.settled("test", 1);
    expect(first?.returnvalue).toMatchObject({ summary: `${s.target}: 1 drifted` });
    expect(gh.state.checkRuns[0]).toMatchObject({ conclusion: "failure" });

    // 2. The drift is undone with kubectl: the watch queues the scan that closes the issue and passes the check.
    gh.expectHead();
    gh.expectIssues({ list: 1, comment: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    await kubectl(["-n", s.namespace, "scale", "deployment", "web", "--replicas=2"]);
    const jobs = await h.settled("test", 2);
    expect(jobs[1]?.data.reason).toBe("watch");
    expect(jobs[1]?.returnvalue).toMatchObject({
      summary: `${s.target}: in sync (1 object)`,
      actions: ["closed issue #1", `updated check run undrift/${s.target}`],
    });
    expect(gh.state.issues[0]?.state).toBe("closed");
    expect(gh.state.checkRuns).toHaveLength(1);
    expect(gh.state.checkRuns[0]).toMatchObject({
      conclusion: "success",
      output: { title: `${s.target}: in sync (1 object)` },
    });
  });
});
