import { describe, expect, it } from "vitest";
import { ensurePreviewComments } from "../../../src/github/ensure-preview-comments.ts";
import { ensureRevertMergeComment, revertMergeMarker } from "../../../src/github/revert-merge-comment.ts";
import { digestOf, formatMarker } from "../../../src/report/markers.ts";
import { owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const html = (id: number) => `https://github.com/${owner}/${repo}/pull/12#issuecomment-${id}`;
const comment = (id: number, body: string, type = "Bot") => ({
  id,
  body,
  html_url: html(id),
  user: { login: "u", type },
});

function expectList(comments: unknown[], query: Record<string, string | number> = {}) {
  github.expect({ method: "GET", path: `${repoPath}/issues/12/comments`, query, reply: { body: comments } });
}

describe("the revert-merge comment", () => {
  const merged = { owner, repo, pullNumber: 12, target: "infra", body: "Applied." };
  const body = `${revertMergeMarker("infra")}\nApplied.`;

  it("is posted once, edited when its text changed, and left alone when it is the same", async () => {
    expectList([comment(1, "A person's comment", "User")], { per_page: 100 });
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/12/comments`,
      body: { body },
      reply: { status: 201, body: comment(2, body) },
    });
    const created = await ensureRevertMergeComment({ octokit: github.octokit(), ...merged });
    expect(created).toEqual({ action: "created", url: html(2) });

    expectList([comment(2, `${revertMergeMarker("infra")}\nEarlier.`)]);
    github.expect({ method: "PATCH", path: `${repoPath}/issues/comments/2`, body: { body }, reply: { body: {} } });
    const updated = await ensureRevertMergeComment({ octokit: github.octokit(), ...merged });
    expect(updated).toEqual({ action: "updated", url: html(2) });

    expectList([comment(2, body)]);
    const same = await ensureRevertMergeComment({ octokit: github.octokit(), ...merged });
    expect(same).toEqual({ action: "unchanged", url: html(2) });
    expect(github.writes().map((w) => w.method)).toEqual(["POST", "PATCH"]);
  });
});

describe("the preview comment parts", () => {
  const preview = { owner, repo, number: 12, parts: ["part one", "part two"] };

  it("edits the changed part, keeps the same one, deletes a second copy, and a dry run records the same", async () => {
    const [one, two] = [marked(1, "part one"), marked(2, "old two")];
    const listed = [comment(5, one), comment(6, two), comment(7, one)];
    expectList(listed, { page: 1, per_page: 100 });
    const dry = await ensurePreviewComments({ octokit: github.octokit(), ...preview, dryRun: true });
    expect(github.writes()).toEqual([]);

    expectList(listed, { page: 1 });
    github.expect({ method: "PATCH", path: `${repoPath}/issues/comments/6`, reply: { body: {} } });
    github.expect({ method: "DELETE", path: `${repoPath}/issues/comments/7`, reply: { status: 204 } });
    const real = await ensurePreviewComments({ octokit: github.octokit(), ...preview });

    expect(real.actions).toEqual(["updated preview part 2 on #12", "deleted preview part 1 on #12"]);
    expect(real.url).toBe(html(5));
    expect(dry.writes).toEqual(real.writes);
    expect(real.writes).toEqual([
      { route: "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", summary: "update preview part 2 on #12" },
      { route: "DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", summary: "delete preview part 1 on #12" },
    ]);
  });
});

/** A part's body as ensurePreviewComments writes it: its marker with the text's digest, then the text. */
function marked(part: number, text: string): string {
  return `${formatMarker("preview", { pr: "12", part: String(part), digest: digestOf(text) })}\n${text}`;
}
