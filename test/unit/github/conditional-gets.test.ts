import { describe, expect, it } from "vitest";
import { withConditionalGets } from "../../../src/github/conditional-gets.ts";
import { checkRunName, ensureCheckRun } from "../../../src/github/ensure-check-run.ts";
import { ensureDriftPr } from "../../../src/github/ensure-drift-pr.ts";
import { ensureTrackingIssue } from "../../../src/github/ensure-tracking-issue.ts";
import { headIfChanged } from "../../../src/github/head-if-changed.ts";
import { memoryStore } from "../../../src/github/key-value-store.ts";
import {
  checkRunReply,
  headSha,
  issueReply,
  owner,
  pullReply,
  repo,
  repoPath,
  treeSha,
} from "../../helpers/github/responses.ts";
import { type ExpectedCall, type MockReply, useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();

/** A GET that answers 304 to its current ETag, as GitHub does, and the full body otherwise. */
function expectConditional(call: Omit<ExpectedCall, "reply" | "method">, etag: string, full: MockReply) {
  github.expect({
    ...call,
    method: "GET",
    reply: (req) =>
      req.headers["if-none-match"] === etag ? { status: 304, headers: { etag } } : { ...full, headers: { etag } },
  });
}

describe("withConditionalGets", () => {
  it("sends the last ETag and answers a 304 with the body kept from before", async () => {
    const octokit = withConditionalGets({ octokit: github.octokit(), store: memoryStore() });
    const call = { path: `${repoPath}/pulls`, times: 2 };
    expectConditional(call, 'W/"p1"', { body: [{ number: 12 }] });
    const first = await octokit.request("GET /repos/{owner}/{repo}/pulls", { owner, repo, state: "open" });
    const second = await octokit.request("GET /repos/{owner}/{repo}/pulls", { owner, repo, state: "open" });
    expect(second.data).toEqual(first.data);
    expect(github.requests.map((r) => [r.status, r.headers["if-none-match"]])).toEqual([
      [200, undefined],
      [304, 'W/"p1"'],
    ]);
  });

  it("keeps ETags per URL, query included, and lets writes through untouched", async () => {
    const store = memoryStore();
    const octokit = withConditionalGets({ octokit: github.octokit(), store });
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { state: "open" },
      reply: { body: [], headers: { etag: '"a"' } },
    });
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { state: "closed" },
      reply: { body: [], headers: { etag: '"b"' } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/issues`,
      reply: { status: 201, body: issueReply({ number: 1 }), headers: { etag: '"c"' } },
    });
    await octokit.request("GET /repos/{owner}/{repo}/pulls", { owner, repo, state: "open" });
    await octokit.request("GET /repos/{owner}/{repo}/pulls", { owner, repo, state: "closed" });
    await octokit.request("POST /repos/{owner}/{repo}/issues", { owner, repo, title: "t" });
    expect(github.requests.map((r) => r.headers["if-none-match"])).toEqual([undefined, undefined, undefined]);
    expect(await store.get(`undrift:etag:https://api.github.com/repos/${owner}/${repo}/pulls?state=closed`)).toBe(
      JSON.stringify({ etag: '"b"', data: [] }),
    );
    expect(await store.get(`undrift:etag:https://api.github.com/repos/${owner}/${repo}/issues`)).toBeUndefined();
  });

  it("makes a scheduled scan that finds nothing new cost no rate-limited request", async () => {
    const store = memoryStore();
    const octokit = withConditionalGets({ octokit: github.octokit(), store });
    const name = checkRunName("infra");
    const drift = { title: "Drift in infra", body: "## 1 drifted" };
    const scan = async () => {
      const head = await headIfChanged({ octokit, owner, repo, branch: "main", store });
      return Promise.all([
        ensureCheckRun({
          octokit,
          owner,
          repo,
          name,
          headSha: head.sha,
          conclusion: "neutral",
          output: { title: "1 drifted", summary: "s" },
        }),
        ensureTrackingIssue({ octokit, owner, repo, target: "infra", drift, creator: "undrift[bot]" }),
        ensureDriftPr({
          octokit,
          owner,
          repo,
          target: "infra",
          mode: "codify",
          fingerprint: "aaaa000011112222",
          base: { branch: "main", sha: head.sha, treeSha: head.treeSha },
          files: [{ file: "infra/web.yaml", after: "replicas: 5\n" }],
          title: "codify",
          body: "b",
        }),
      ]);
    };

    // What the first scan left on GitHub: the check run, the issue and the PR, with what they say.
    let externalId = "";
    let issueBody = "";
    github.expect({
      method: "GET",
      path: `${repoPath}/commits/${headSha}/check-runs`,
      reply: { body: { total_count: 0, check_runs: [] } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: (req) => {
        externalId = (req.json as { external_id: string }).external_id;
        return { status: 201, body: checkRunReply({ name }) };
      },
    });
    github.expect({ method: "GET", path: `${repoPath}/issues`, reply: { body: [] } });
    github.expect({
      method: "POST",
      path: `${repoPath}/issues`,
      reply: (req) => {
        issueBody = (req.json as { body: string }).body;
        return { status: 201, body: issueReply({ number: 4 }) };
      },
    });
    github.expect({ method: "GET", path: `${repoPath}/pulls`, reply: { body: [] } });
    for (const path of ["git/trees", "git/commits", "git/refs"]) {
      github.expect({
        method: "POST",
        path: `${repoPath}/${path}`,
        reply: { status: 201, body: { sha: "1111111111111111111111111111111111111111" } },
      });
    }
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: { status: 201, body: pullReply({ number: 12, head: "undrift/codify/infra" }) },
    });
    expectConditional({ path: `${repoPath}/branches/main`, times: 3 }, '"h1"', {
      body: { name: "main", commit: { sha: headSha, commit: { tree: { sha: treeSha } } } },
    });
    await scan();

    // Two later scans of an unchanged repository and unchanged drift: the second asks only conditionally.
    const prBody = "<!-- undrift:pr target=infra mode=codify fingerprint=aaaa000011112222 -->\nb";
    expectConditional({ path: `${repoPath}/commits/${headSha}/check-runs`, times: 2 }, '"c1"', {
      body: { total_count: 1, check_runs: [checkRunReply({ name, external_id: externalId })] },
    });
    expectConditional({ path: `${repoPath}/issues`, times: 2 }, '"i1"', {
      body: [issueReply({ number: 4, title: drift.title, body: issueBody })],
    });
    expectConditional({ path: `${repoPath}/pulls`, times: 2 }, '"p1"', {
      body: [pullReply({ number: 12, head: "undrift/codify/infra", body: prBody })],
    });
    await scan();
    const before = github.requests.length;
    const results = await scan();
    const last = github.requests.slice(before);

    expect(results.map((r) => r.action)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(last.map((r) => `${r.status} ${r.operationId}`).sort()).toEqual([
      "304 checks/list-for-ref",
      "304 issues/list-for-repo",
      "304 pulls/list",
      "304 repos/get-branch",
    ]);
  });
});
