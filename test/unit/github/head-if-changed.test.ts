import { describe, expect, it } from "vitest";
import { headIfChanged, headStoreKey } from "../../../src/github/head-if-changed.ts";
import { memoryStore } from "../../../src/github/key-value-store.ts";
import { headSha, otherSha, owner, repo, repoPath, treeSha } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();

function branchReply(sha: string, etag: string) {
  return {
    body: { name: "main", commit: { sha, commit: { tree: { sha: treeSha } } }, protected: false },
    headers: { etag },
  };
}

describe("headIfChanged", () => {
  it("reads the head once, then asks with its ETag and takes a 304 as unchanged", async () => {
    const store = memoryStore();
    const params = { octokit: github.octokit(), owner, repo, branch: "main", store };
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: branchReply(headSha, 'W/"one"') });
    expect(await headIfChanged(params)).toEqual({ status: "changed", sha: headSha, treeSha });

    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: { status: 304 } });
    expect(await headIfChanged(params)).toEqual({ status: "unchanged", sha: headSha, treeSha });
    expect(github.requests[0]?.headers["if-none-match"]).toBeUndefined();
    expect(github.requests[1]?.headers["if-none-match"]).toBe('W/"one"');
  });

  it("reports a moved branch as changed and remembers the new ETag", async () => {
    const store = memoryStore();
    const params = { octokit: github.octokit(), owner, repo, branch: "main", store };
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: branchReply(headSha, '"one"') });
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: branchReply(otherSha, '"two"') });
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: { status: 304 } });
    await headIfChanged(params);
    expect(await headIfChanged(params)).toMatchObject({ status: "changed", sha: otherSha });
    expect(await headIfChanged(params)).toMatchObject({ status: "unchanged", sha: otherSha });
    expect(github.requests[2]?.headers["if-none-match"]).toBe('"two"');
  });

  it("calls a new ETag for the same commit unchanged (branch protection edits change the ETag, not the head)", async () => {
    const store = memoryStore();
    const params = { octokit: github.octokit(), owner, repo, branch: "main", store };
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: branchReply(headSha, '"one"') });
    github.expect({ method: "GET", path: `${repoPath}/branches/main`, reply: branchReply(headSha, '"two"') });
    await headIfChanged(params);
    expect((await headIfChanged(params)).status).toBe("unchanged");
  });

  it("keeps ETags per repository and branch in the injected store, which workers can share", async () => {
    const store = memoryStore();
    github.expect({
      method: "GET",
      path: "/repos/ACME/gitops/branches/release/1.0",
      reply: branchReply(headSha, '"r"'),
    });
    await headIfChanged({ octokit: github.octokit(), owner: "ACME", repo, branch: "release/1.0", store });
    expect(JSON.parse((await store.get(headStoreKey({ owner, repo, branch: "release/1.0" }))) ?? "{}")).toEqual({
      sha: headSha,
      treeSha,
      etag: '"r"',
    });
  });

  it("surfaces a repository the app cannot see as a permission error", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/branches/main`,
      reply: { status: 404, body: { message: "Not Found" } },
    });
    await expect(
      headIfChanged({ octokit: github.octokit(), owner, repo, branch: "main", store: memoryStore() }),
    ).rejects.toMatchObject({
      kind: "permission",
      message: expect.stringMatching(/read head of main: 404 \(missing, or the app is not allowed to see it\)/),
    });
  });
});
