// A heal fight's ignore pull request that cannot be made for good (a config it
// cannot edit) must not stop the heal: the tracking issue says why instead.
// A passing failure (GitHub answering 5xx) is not swallowed: the scan retries.
import { describe, expect, it } from "vitest";
import { ignoreFight } from "../../../src/worker/ignore-fight.ts";
import type { ResolvedScanTarget } from "../../../src/worker/resolve-scan-target.ts";
import type { WorkerDeps } from "../../../src/worker/worker-deps.ts";
import { headSha, owner, repo, repoPath, treeSha } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";
import { tempRepo } from "../desired/temp-repo.ts";
import { deployment, healScan, target } from "../modes/heal/heal-scan.ts";

const github = useGitHubMock();
const fought = [
  { object: deployment("web", 3), fields: [{ path: "/spec/replicas", manager: "hpa-controller", heals: 3 }] },
];

async function fight(config: string) {
  const repoDir = await tempRepo({ ".github/undrift.yml": config });
  const scan = await healScan([{ desired: deployment("web", 3) }]);
  // What the proposal reads before its proof scan: the snapshot, the client, the head and the target.
  const resolved = {
    owner,
    repo,
    reads: github.octokit(),
    head: { branch: "main", sha: headSha, treeSha },
    repoDir,
    target,
  } as unknown as ResolvedScanTarget;
  // deps only reach the cluster, for the proof scan, which these cases never get to.
  return ignoreFight({ deps: {} as WorkerDeps, resolved, scan, fought });
}

describe("a heal fight's ignore pull request", () => {
  it("is refused, with the config's own error, when the config at the head is not valid", async () => {
    const outcome = await fight(
      "targets:\n  - name: shop\n    cluster: prod\n    path: apps/shop\n    mode: sometimes\n",
    );
    expect(outcome).toMatchObject({ outcome: "refused", fields: [], managers: [] });
    expect(outcome.lines).toHaveLength(1);
    expect(outcome.lines[0]).toMatch(/^No ignore pull request: \.github\/undrift\.yml:5: targets\[0\]\.mode: /);
    expect(github.requests).toEqual([]);
  });

  it("is refused, naming the targets it has, when the config as written no longer has the target", async () => {
    const outcome = await fight("targets:\n  - name: other\n    cluster: prod\n    path: apps/other\n");
    expect(outcome.outcome).toBe("refused");
    expect(outcome.lines).toEqual([
      'No ignore pull request: target "shop" is not in .github/undrift.yml (it has: other)',
    ]);
  });

  it("fails the scan, to be retried, when GitHub cannot answer for the open ignore pull request", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { head: `${owner}:undrift/ignore/shop` },
      reply: { status: 502, body: { message: "Bad Gateway" } },
    });
    await expect(fight("targets:\n  - name: shop\n    cluster: prod\n    path: apps/shop\n")).rejects.toThrow(
      /502|Bad Gateway/,
    );
  });
});
