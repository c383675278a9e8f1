import { describe, expect, it } from "vitest";
import { closeDriftPr } from "../../../src/github/close-drift-pr.ts";
import { EmptyDriftPrError, type EnsureDriftPrParams, ensureDriftPr } from "../../../src/github/ensure-drift-pr.ts";
import { headSha, otherSha, owner, pullReply, repo, repoPath, treeSha } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const branch = "undrift/codify/infra";
const newTree = "1111111111111111111111111111111111111111";
const newCommit = "2222222222222222222222222222222222222222";
const marker = (fp: string) => `<!-- undrift:pr target=infra mode=codify fingerprint=${fp} -->`;

function params(overrides: Partial<EnsureDriftPrParams> = {}): EnsureDriftPrParams {
  return {
    octokit: github.octokit(),
    owner,
    repo,
    target: "infra",
    mode: "codify",
    fingerprint: "aaaa000011112222",
    base: { branch: "main", sha: headSha, treeSha },
    files: [{ file: "infra/web.yaml", before: "replicas: 3\n", after: "replicas: 5\n" }],
    title: "undrift: codify drift of infra",
    body: "Deployment shop/web: `/spec/replicas` 3 → 5 (kubectl-scale)",
    labels: ["drift"],
    reviewers: ["alice"],
    ...overrides,
  };
}

function expectOpenPrs(prs: unknown[]) {
  github.expect({
    method: "GET",
    path: `${repoPath}/pulls`,
    query: { head: `${owner}:${branch}`, state: "open" },
    reply: { body: prs },
  });
}

/** The Git Data calls of one commit: the tree (with what it must hold) and the commit on `parent`. */
function expectCommit(tree: (entries: Array<Record<string, unknown>>) => boolean, parent = headSha) {
  github.expect({
    method: "POST",
    path: `${repoPath}/git/trees`,
    body: (json) => {
      const j = json as { base_tree: string; tree: Array<Record<string, unknown>> };
      return j.base_tree === treeSha && tree(j.tree);
    },
    reply: { status: 201, body: { sha: newTree, tree: [] } },
  });
  github.expect({
    method: "POST",
    path: `${repoPath}/git/commits`,
    body: { tree: newTree, parents: [parent] },
    reply: { status: 201, body: { sha: newCommit } },
  });
}

function expectCreate(
  options: { labels?: boolean; reviewers?: Record<string, unknown> } = {},
  { skipRef = false }: { skipRef?: boolean } = {},
) {
  if (!skipRef) {
    github.expect({
      method: "POST",
      path: `${repoPath}/git/refs`,
      body: { ref: `refs/heads/${branch}`, sha: newCommit },
      reply: { status: 201, body: { ref: `refs/heads/${branch}`, object: { sha: newCommit } } },
    });
  }
  github.expect({
    method: "POST",
    path: `${repoPath}/pulls`,
    body: (json) => {
      const j = json as { head: string; base: string; body: string };
      return j.head === branch && j.base === "main" && j.body.startsWith(`${marker("aaaa000011112222")}\n`);
    },
    reply: { status: 201, body: pullReply({ number: 12, head: branch }) },
  });
  if (options.labels !== false) {
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/12/labels`,
      body: { labels: ["drift"] },
      reply: { body: [] },
    });
  }
  if (options.reviewers) {
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls/12/requested_reviewers`,
      body: options.reviewers,
      reply: { status: 201, body: pullReply({ number: 12, head: branch }) },
    });
  }
}

describe("ensureDriftPr", () => {
  it("opens the PR in at most N+6 requests: inline tree, commit on the scanned revision, branch, PR, labels, reviewers", async () => {
    expectOpenPrs([]);
    expectCommit((tree) => tree.length === 1 && tree[0]?.content === "replicas: 5\n" && tree[0]?.mode === "100644");
    expectCreate({ reviewers: { reviewers: ["alice"] } });
    const result = await ensureDriftPr(params());
    expect(result).toMatchObject({ action: "created", number: 12, branch, commitSha: newCommit, warnings: [] });
    const n = 1;
    expect(github.requests.length).toBeLessThanOrEqual(n + 6);
    expect(github.requests.map((r) => r.operationId)).toEqual([
      "pulls/list",
      "git/create-tree",
      "git/create-commit",
      "git/create-ref",
      "pulls/create",
      "issues/add-labels",
      "pulls/request-reviewers",
    ]);
  });

  it("looks the base branch up when no revision is given, still within N+6 for three files", async () => {
    expectOpenPrs([]);
    github.expect({
      method: "GET",
      path: `${repoPath}/branches/main`,
      reply: { body: { name: "main", commit: { sha: otherSha, commit: { tree: { sha: treeSha } } } } },
    });
    expectCommit(
      (tree) =>
        tree.length === 3 &&
        tree[2]?.path === "infra/old.yaml" &&
        tree[2]?.sha === null &&
        tree.slice(0, 2).every((e) => typeof e.content === "string"),
      otherSha,
    );
    expectCreate({ reviewers: { reviewers: ["alice"], team_reviewers: ["platform"] } });
    const files = [
      { file: "infra/web.yaml", before: "a", after: "b" },
      { file: "infra/patch-web.yaml", after: "new" },
      { file: "infra/old.yaml", before: "gone" },
    ];
    await ensureDriftPr(params({ base: { branch: "main" }, files, reviewers: ["alice", "acme/platform"] }));
    expect(github.requests).toHaveLength(8);
    expect(github.requests.length).toBeLessThanOrEqual(files.length + 6);
  });

  it("reads the tree of a given revision when only its SHA is known", async () => {
    expectOpenPrs([]);
    github.expect({
      method: "GET",
      path: `${repoPath}/git/commits/${headSha}`,
      reply: { body: { sha: headSha, tree: { sha: treeSha } } },
    });
    expectCommit(() => true);
    expectCreate({ labels: false });
    await ensureDriftPr(params({ base: { branch: "main", sha: headSha }, labels: [], reviewers: [] }));
    expect(github.requests).toHaveLength(6);
  });

  it("sends a file too large to go inline as a blob, one request per such file", async () => {
    const big = "x: 1\n".repeat(120_000);
    expectOpenPrs([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/git/blobs`,
      body: (json) => Buffer.from((json as { content: string }).content, "base64").toString() === big,
      reply: { status: 201, body: { sha: "3333333333333333333333333333333333333333" } },
    });
    expectCommit(
      (tree) =>
        tree[0]?.sha === "3333333333333333333333333333333333333333" &&
        !("content" in tree[0]) &&
        tree[1]?.content === "b",
    );
    expectCreate({ reviewers: { reviewers: ["alice"] } });
    const files = [
      { file: "infra/big.yaml", after: big },
      { file: "infra/web.yaml", after: "b" },
    ];
    await ensureDriftPr(params({ files }));
    expect(github.requests.length).toBeLessThanOrEqual(files.length + 6);
  });

  it("commits every file or none: a file GitHub refuses leaves no tree, no commit and no branch", async () => {
    // Every file goes into one tree and one commit, and the branch moves last: a failure before leaves Git as it was.
    const big = "x: 1\n".repeat(120_000);
    expectOpenPrs([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/git/blobs`,
      reply: { status: 422, body: { message: "Validation Failed" } },
    });
    const files = [
      { file: "infra/big.yaml", after: big },
      { file: "infra/web.yaml", before: "a", after: "b" },
    ];
    await expect(ensureDriftPr(params({ files }))).rejects.toMatchObject({ name: "GitHubError" });
    expect(github.requests.map((r) => r.operationId)).toEqual(["pulls/list", "git/create-blob"]);
  });

  it("makes no write at all when the drift fingerprint is the same", async () => {
    expectOpenPrs([pullReply({ number: 12, head: branch, body: `${marker("aaaa000011112222")}\nold text` })]);
    const result = await ensureDriftPr(params({ body: "text that changed with the same drift" }));
    expect(result).toMatchObject({ action: "unchanged", number: 12, writes: [] });
    expect(github.requests).toHaveLength(1);
    expect(github.writes()).toEqual([]);
  });

  it("updates the same PR when the drift changes: new commit, branch force-moved, body retitled", async () => {
    expectOpenPrs([pullReply({ number: 12, head: branch, body: `${marker("0000000000000000")}\nold` })]);
    expectCommit(() => true);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/git/refs/heads/${branch}`,
      body: { sha: newCommit, force: true },
      reply: { body: { ref: `refs/heads/${branch}`, object: { sha: newCommit } } },
    });
    github.expect({
      method: "PATCH",
      path: `${repoPath}/pulls/12`,
      body: (json) =>
        (json as { body: string }).body.startsWith(marker("aaaa000011112222")) && !("base" in (json as object)),
      reply: { body: pullReply({ number: 12, head: branch }) },
    });
    const result = await ensureDriftPr(params());
    expect(result.action).toBe("updated");
    expect(github.requests).toHaveLength(5);
  });

  it("reuses a branch left behind by a PR closed by hand", async () => {
    expectOpenPrs([]);
    expectCommit(() => true);
    github.expect({
      method: "POST",
      path: `${repoPath}/git/refs`,
      reply: { status: 422, body: { message: "Reference already exists" } },
    });
    github.expect({
      method: "PATCH",
      path: `${repoPath}/git/refs/heads/${branch}`,
      body: { force: true },
      reply: { body: {} },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: { status: 201, body: pullReply({ number: 13, head: branch }) },
    });
    const result = await ensureDriftPr(params({ labels: [], reviewers: [] }));
    expect(result).toMatchObject({ action: "created", number: 13 });
  });

  it("keeps the PR when a reviewer cannot be requested, and says why", async () => {
    expectOpenPrs([]);
    expectCommit(() => true);
    expectCreate({ labels: false });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls/12/requested_reviewers`,
      reply: { status: 422, body: { message: "Reviews may only be requested from collaborators." } },
    });
    const result = await ensureDriftPr(params({ labels: [], reviewers: ["outsider"] }));
    expect(result.action).toBe("created");
    expect(result.warnings).toEqual([
      "acme/gitops: request reviewers for #12: 422: Reviews may only be requested from collaborators.",
    ]);
  });

  it("as a dry run, reads the same and yields the records of the real run without writing", async () => {
    expectOpenPrs([]);
    const dry = await ensureDriftPr(params({ dryRun: true }));
    expect(github.writes()).toEqual([]);
    expectOpenPrs([]);
    expectCommit(() => true);
    expectCreate({ reviewers: { reviewers: ["alice"] } });
    const real = await ensureDriftPr(params());
    expect(dry.writes).toEqual(real.writes);
    expect(dry).toMatchObject({ action: "created", dryRun: true, branch });
    expect(dry.writes.map((w) => w.summary)).toEqual([
      "create tree with 1 changed files on 4b825dc",
      "create commit on 4b825dc: undrift: codify drift of infra",
      "create branch undrift/codify/infra",
      "open pull request undrift/codify/infra → main",
      "label the pull request from undrift/codify/infra: drift",
      "request review of the pull request from undrift/codify/infra: alice",
    ]);
  });

  it("finishes a create that failed halfway on the job's next attempt, without a second PR", async () => {
    expectOpenPrs([]);
    expectCommit(() => true);
    github.expect({ method: "POST", path: `${repoPath}/git/refs`, reply: { status: 201, body: {} } });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: { status: 500, body: { message: "Server Error" } },
    });
    const failed = await ensureDriftPr(params()).catch((e: unknown) => e);
    expect(failed).toMatchObject({ name: "GitHubError", kind: "transient", retryable: true });

    expectOpenPrs([]);
    expectCommit(() => true);
    github.expect({
      method: "POST",
      path: `${repoPath}/git/refs`,
      reply: { status: 422, body: { message: "Reference already exists" } },
    });
    github.expect({
      method: "PATCH",
      path: `${repoPath}/git/refs/heads/${branch}`,
      body: { force: true },
      reply: { body: {} },
    });
    expectCreate({ reviewers: { reviewers: ["alice"] } }, { skipRef: true });
    expect(await ensureDriftPr(params())).toMatchObject({ action: "created", number: 12 });
    expect(github.requests.filter((r) => r.operationId === "pulls/create").map((r) => r.status)).toEqual([500, 201]);
  });

  it("takes the PR as created when octokit's retry of a lost answer finds it already exists", async () => {
    expectOpenPrs([]);
    expectCommit(() => true);
    github.expect({ method: "POST", path: `${repoPath}/git/refs`, reply: { status: 201, body: {} } });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: { status: 502, body: { message: "Bad Gateway" } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/pulls`,
      reply: {
        status: 422,
        body: {
          message: "Validation Failed",
          errors: [{ message: "A pull request already exists for acme:undrift/codify/infra." }],
        },
      },
    });
    expectOpenPrs([pullReply({ number: 12, head: branch })]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/pulls/12`,
      body: (json) => (json as { body: string }).body.startsWith(marker("aaaa000011112222")),
      reply: { body: pullReply({ number: 12, head: branch }) },
    });
    github.expect({ method: "POST", path: `${repoPath}/issues/12/labels`, reply: { body: [] } });
    const result = await ensureDriftPr(params({ octokit: github.octokit({ retries: 2 }), reviewers: [] }));
    expect(result).toMatchObject({ action: "created", number: 12 });
    expect(github.requests.filter((r) => r.operationId === "pulls/create")).toHaveLength(2);
  });

  it("refuses to open a PR without file changes, before any request", async () => {
    await expect(ensureDriftPr(params({ files: [] }))).rejects.toBeInstanceOf(EmptyDriftPrError);
    expect(github.requests).toEqual([]);
  });

  it("refuses a file path that leaves the repository", async () => {
    expectOpenPrs([]);
    await expect(ensureDriftPr(params({ files: [{ file: "../etc/passwd", after: "x" }] }))).rejects.toThrow(
      "../etc/passwd: not a path inside the repository",
    );
  });
});

describe("closeDriftPr", () => {
  it("comments, closes the PR and deletes its branch when the drift is gone", async () => {
    expectOpenPrs([pullReply({ number: 12, head: branch, body: marker("x") })]);
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/12/comments`,
      body: (json) => /gone for target `infra` at `4b825dc642cb`/.test((json as { body: string }).body),
      reply: { status: 201, body: { id: 1 } },
    });
    github.expect({ method: "PATCH", path: `${repoPath}/pulls/12`, body: { state: "closed" }, reply: { body: {} } });
    github.expect({ method: "DELETE", path: `${repoPath}/git/refs/heads/${branch}`, reply: { status: 204 } });
    const result = await closeDriftPr({
      octokit: github.octokit(),
      owner,
      repo,
      target: "infra",
      mode: "codify",
      revision: headSha,
    });
    expect(result).toMatchObject({ action: "closed", number: 12 });
    expect(result.writes).toHaveLength(3);
  });

  it("writes nothing when no drift PR is open", async () => {
    expectOpenPrs([]);
    const result = await closeDriftPr({ octokit: github.octokit(), owner, repo, target: "infra", mode: "codify" });
    expect(result).toEqual({ action: "unchanged", dryRun: false, branch, writes: [] });
    expect(github.writes()).toEqual([]);
  });

  it("as a dry run, yields the records of the real close without writing", async () => {
    expectOpenPrs([pullReply({ number: 12, head: branch })]);
    const dry = await closeDriftPr({
      octokit: github.octokit(),
      owner,
      repo,
      target: "infra",
      mode: "codify",
      dryRun: true,
    });
    expect(github.writes()).toEqual([]);
    expect(dry.writes.map((w) => w.summary)).toEqual([
      "comment on pull request #12: drift gone",
      "close pull request #12",
      "delete branch undrift/codify/infra",
    ]);
  });

  it("closes the PR even when its branch is already gone", async () => {
    expectOpenPrs([pullReply({ number: 12, head: branch })]);
    github.expect({ method: "POST", path: `${repoPath}/issues/12/comments`, reply: { status: 201, body: { id: 1 } } });
    github.expect({ method: "PATCH", path: `${repoPath}/pulls/12`, reply: { body: {} } });
    github.expect({
      method: "DELETE",
      path: `${repoPath}/git/refs/heads/${branch}`,
      reply: { status: 422, body: { message: "Reference does not exist" } },
    });
    const result = await closeDriftPr({
      octokit: github.octokit(),
      owner,
      repo,
      target: "infra",
      mode: "codify",
      comment: "gone",
    });
    expect(result.action).toBe("closed");
  });
});
