// Revert mode's pull request, as the repository sees it: drift becomes one PR
// whose only file is the record merging approves, the check run says nothing
// was applied yet, and the same drift at the next scan writes nothing.

import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { revertDrift } from "../../../../src/modes/revert/revert-drift.ts";
import { headSha, owner, pullReply, repo, repoPath, treeSha } from "../../../helpers/github/responses.ts";
import { useGitHubMock } from "../../../helpers/github-mock.ts";
import { sampleReport } from "../../report/sample-report.ts";

const github = useGitHubMock();
const branch = "undrift/revert/infra";
const newTree = "1111111111111111111111111111111111111111";
const newCommit = "2222222222222222222222222222222222222222";

const revert = () =>
  revertDrift({
    octokit: github.octokit(),
    owner,
    repo,
    report: sampleReport(),
    kept: new Map(),
    cluster: "prod",
    base: { branch: "main", sha: headSha, treeSha },
    pullRequests: { labels: [], reviewers: [] },
  });

const expectOpenPrs = (prs: unknown[]) =>
  github.expect({
    method: "GET",
    path: `${repoPath}/pulls`,
    query: { head: `${owner}:${branch}` },
    reply: { body: prs },
  });

describe("revert mode's pull request", () => {
  it("opens one PR whose commit writes only the record file, and says nothing was applied to the cluster", async () => {
    expectOpenPrs([]);
    let record: Record<string, unknown> = {};
    github.expect({
      method: "POST",
      path: `${repoPath}/git/trees`,
      body: (json) => {
        const tree = (json as { tree: Array<{ path: string; content: string }> }).tree;
        record = parse(tree[0]?.content ?? "") as Record<string, unknown>;
        return tree.length === 1 && tree[0]?.path === ".undrift/revert/infra.yaml";
      },
      reply: { status: 201, body: { sha: newTree, tree: [] } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/commits`,
      body: { parents: [headSha] },
      reply: { status: 201, body: { sha: newCommit } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/git/refs`,
      body: { ref: `refs/heads/${branch}` },
      reply: { status: 201, body: {} },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      body: { head: branch, base: "main", title: "undrift: revert drift of infra on prod" },
      reply: { status: 201, body: pullReply({ number: 12, head: branch }) },
    });
    const result = await revert();
    // The record names what merging approves: this target, cluster and drift.
    expect(record).toMatchObject({ target: "infra", cluster: "prod", fingerprint: sampleReport().fingerprint });
    expect(result.pullRequest).toEqual({ number: 12, url: "https://github.com/acme/gitops/pull/12" });
    expect(result.lines).toEqual([
      "Pull request: #12 https://github.com/acme/gitops/pull/12",
      "Nothing was applied to the cluster: merging the pull request applies Git to the objects it lists.",
    ]);
    expect(result.done.map((d) => [d.event, d.summary])).toEqual([["pr-opened", "created pull request #12"]]);
  });

  it("writes nothing when the open PR already carries this drift, and still points the check run to it", async () => {
    const marker = `<!-- undrift:pr target=infra mode=revert fingerprint=${sampleReport().fingerprint} -->`;
    expectOpenPrs([pullReply({ number: 12, head: branch, body: `${marker}\nbody` })]);
    const result = await revert();
    expect(github.writes()).toEqual([]);
    expect(result.done).toEqual([]);
    expect(result.lines[0]).toBe("Pull request: #12 https://github.com/acme/gitops/pull/12");
  });
});
