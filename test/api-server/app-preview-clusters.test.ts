import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { fakeRepo } from "../helpers/app-github.ts";
import { fakePullRequest } from "../helpers/app-github-preview.ts";
import { type AppHarness, commitRepo, openAppHarness } from "../helpers/app-harness.ts";
import { closedPortKubeconfig, kubeconfigPath } from "../helpers/cluster.ts";
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

describe("a preview across clusters", () => {
  it("shows pending, refused and unreachable clusters' targets, and completes the check when all are in", async () => {
    s = scenario({ files: { "manifests/web.yaml": web } });
    const parsed = parse(readFileSync(join(s.repoDir, ".github/undrift.yml"), "utf8")) as {
      targets: Array<Record<string, unknown>>;
    };
    const [own] = parsed.targets;
    const down = `${s.target}-down`;
    const refused = `${s.target}-refused`;
    parsed.targets.push({ ...own, name: down, cluster: "down" }, { ...own, name: refused, cluster: "elsewhere" });
    const config = stringify(parsed);
    s.write({ ".github/undrift.yml": config });
    await s.applyGit();
    const base = await commitRepo(s.repoDir);
    s.write({ "manifests/web.yaml": web.replace("replicas: 2 # Git says two", "replicas: 3") });
    const head = await commitRepo(s.repoDir);
    const downConfig = join(s.repoDir, "..", `${down}.kubeconfig`);
    await writeFile(downConfig, await closedPortKubeconfig());
    h = await openAppHarness({
      clusters: {
        test: { kubeconfig: kubeconfigPath(), repositories: ["acme/gitops"] },
        down: { kubeconfig: downConfig, repositories: ["acme/gitops"] },
        elsewhere: { kubeconfig: kubeconfigPath(), repositories: ["other/repo"] },
      },
    });
    const gh = fakeRepo({ github, head: base });
    const pr = fakePullRequest({ github, gh, number: 4, base, head });

    // 1. Opened: a job for each allowed cluster; the refused one has none.
    gh.expectToken();
    gh.expectConfig(config, { ref: head.sha });
    pr.expectCompare();
    await h.deliver("pull_request", pr.payload("opened"));
    expect(await h.redis.queues.scan("test").getWaitingCount()).toBe(1);
    expect(await h.redis.queues.scan("down").getWaitingCount()).toBe(1);
    expect(await h.redis.queues.scan("elsewhere").count()).toBe(0);

    // 2. The test cluster's worker: its target's preview, the others pending or refused, the check in progress.
    gh.expectTarball(head);
    gh.expectTarball(base);
    pr.expectComments({ list: 1, create: 1 });
    gh.head = head;
    gh.expectCheckRuns({ list: 1, create: 1 });
    h.startWorkers(["test"]);
    await h.settled("test", 1);
    let body = pr.comments[0]?.body ?? "";
    expect(body).toContain("| `/spec/replicas` | `3` | `2` |");
    expect(body).toMatch(new RegExp(`${down}.*pending`));
    expect(body).toContain(`repository acme/gitops may not use cluster "elsewhere"`);
    expect(github.requests.find((r) => r.operationId === "checks/create")?.json).toMatchObject({
      name: "undrift/preview",
      status: "in_progress",
    });

    // 3. The unreachable cluster's worker: three attempts, then a failed row; the comment is edited, the check completes.
    pr.expectComments({ list: 1, update: 1 });
    gh.expectCheckRuns({ list: 1, update: 1 });
    h.startWorkers(["down"]);
    const [failed] = await h.settled("down", 1);
    expect(failed?.attemptsMade).toBe(3);
    expect(pr.comments).toHaveLength(1);
    body = pr.comments[0]?.body ?? "";
    const section = body.split("#### ").find((part) => part.startsWith(`\`${down}\` on cluster \`down\``)) ?? "";
    expect(section).toContain("**Could not preview**");
    expect(section).toContain("is unreachable: connect ECONNREFUSED");
    expect(body).not.toMatch(/pending/);
    expect(github.requests.find((r) => r.operationId === "checks/update")?.json).toMatchObject({
      status: "completed",
      conclusion: "failure",
    });
  });
});
