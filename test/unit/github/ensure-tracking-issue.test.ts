import { describe, expect, it } from "vitest";
import { type EnsureTrackingIssueParams, ensureTrackingIssue } from "../../../src/github/ensure-tracking-issue.ts";
import { issueReply, owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { type LoggedRequest, useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const drift = { title: "Drift in infra", body: "## 1 drifted\n\nDeployment shop/web: `/spec/replicas` 3 → 5" };

function params(overrides: Partial<EnsureTrackingIssueParams> = {}): EnsureTrackingIssueParams {
  return {
    octokit: github.octokit(),
    owner,
    repo,
    target: "infra",
    drift,
    labels: ["drift"],
    creator: "undrift[bot]",
    ...overrides,
  };
}

function expectIssues(issues: unknown[], page = 1) {
  github.expect({
    method: "GET",
    path: `${repoPath}/issues`,
    query: { state: "all", creator: "undrift[bot]", page },
    reply: { body: issues },
  });
}

/** Opens the issue through the code under test and returns it as GitHub would list it afterwards. */
async function openedIssue(p = params()) {
  let sent: LoggedRequest | undefined;
  expectIssues([]);
  github.expect({
    method: "POST",
    path: `${repoPath}/issues`,
    reply: (req) => {
      sent = req;
      return { status: 201, body: issueReply({ number: 4 }) };
    },
  });
  await ensureTrackingIssue(p);
  const json = sent?.json as { title: string; body: string };
  return issueReply({ number: 4, title: json.title, body: json.body, labels: ["drift"] });
}

describe("ensureTrackingIssue", () => {
  it("opens an issue with the marker on its first line and the configured labels when drift appears", async () => {
    expectIssues([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/issues`,
      body: (json) => {
        const j = json as { title: string; body: string; labels: string[] };
        return (
          j.title === "Drift in infra" &&
          /^<!-- undrift:tracking target=infra digest=[0-9a-f]{16} -->\n## 1 drifted/.test(j.body) &&
          j.labels.join() === "drift"
        );
      },
      reply: { status: 201, body: issueReply({ number: 4 }) },
    });
    const result = await ensureTrackingIssue(params());
    expect(result).toMatchObject({ action: "created", number: 4, url: `https://github.com/${owner}/${repo}/issues/4` });
  });

  it("writes nothing when the same drift is reported again", async () => {
    const issue = await openedIssue();
    expectIssues([issue]);
    const before = github.writes().length;
    const result = await ensureTrackingIssue(params());
    expect(result).toMatchObject({ action: "unchanged", number: 4, writes: [] });
    expect(github.writes()).toHaveLength(before);
  });

  it("edits the issue in place when the drift changes, putting back a label someone removed", async () => {
    const issue = { ...(await openedIssue()), labels: [{ name: "triaged" }] };
    expectIssues([issue]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/issues/4`,
      body: (json) => {
        const j = json as { body: string; labels: string[]; state?: string };
        return /2 drifted/.test(j.body) && j.labels.join() === "triaged,drift" && j.state === undefined;
      },
      reply: { body: issue },
    });
    const result = await ensureTrackingIssue(params({ drift: { title: drift.title, body: "## 2 drifted" } }));
    expect(result.action).toBe("updated");
  });

  it("closes the issue with a comment when the drift is gone", async () => {
    const issue = await openedIssue();
    expectIssues([issue]);
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/4/comments`,
      body: {
        body: "The cluster matches Git again for target `infra` at `4b825dc642cb`: no drift left. Closing; undrift reopens this issue if the drift returns.",
      },
      reply: { status: 201, body: { id: 1 } },
    });
    github.expect({
      method: "PATCH",
      path: `${repoPath}/issues/4`,
      body: { state: "closed", state_reason: "completed" },
      reply: { body: { ...issue, state: "closed" } },
    });
    const result = await ensureTrackingIssue(
      params({ drift: null, revision: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" }),
    );
    expect(result.action).toBe("closed");
    expect(result.writes.map((w) => w.summary)).toEqual([
      "comment on tracking issue #4 of infra: drift gone",
      "close tracking issue #4 of infra",
    ]);
  });

  it("writes nothing when there is no drift and no open issue", async () => {
    const issue = await openedIssue();
    expectIssues([{ ...issue, state: "closed" }]);
    const before = github.writes().length;
    expect((await ensureTrackingIssue(params({ drift: null }))).action).toBe("unchanged");
    expectIssues([]);
    expect(await ensureTrackingIssue(params({ drift: null }))).toEqual({
      action: "unchanged",
      dryRun: false,
      writes: [],
    });
    expect(github.writes()).toHaveLength(before);
  });

  it("reopens the closed issue when the drift returns, rather than opening another", async () => {
    const issue = { ...(await openedIssue()), state: "closed" as const };
    expectIssues([issue]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/issues/4`,
      body: { state: "open", title: "Drift in infra" },
      reply: { body: { ...issue, state: "open" } },
    });
    const result = await ensureTrackingIssue(params());
    expect(result).toMatchObject({ action: "reopened", number: 4 });
  });

  it("tells targets apart by the marker's fields and skips pull requests", async () => {
    expectIssues([
      issueReply({ number: 1, body: "<!-- undrift:tracking target=infra-2 digest=x -->\nother target" }),
      issueReply({ number: 2, body: "<!-- undrift:tracking target=infra digest=x -->", pullRequest: true }),
      issueReply({ number: 3, body: "mentions undrift:tracking target=infra without the marker" }),
    ]);
    github.expect({
      method: "POST",
      path: `${repoPath}/issues`,
      reply: { status: 201, body: issueReply({ number: 9 }) },
    });
    expect((await ensureTrackingIssue(params())).action).toBe("created");
  });

  it("prefers the open issue when an older closed one carries the same marker", async () => {
    const issue = await openedIssue();
    expectIssues([{ ...issue, number: 2, state: "closed" }, issue]);
    expect(await ensureTrackingIssue(params())).toMatchObject({ action: "unchanged", number: 4 });
  });

  it("closes a second open issue of the same target, which only a retried create can leave", async () => {
    const issue = await openedIssue();
    expectIssues([issue, { ...issue, number: 5 }]);
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/5/comments`,
      body: { body: "Duplicate of #4: undrift keeps one tracking issue per target (`infra`)." },
      reply: { status: 201, body: { id: 2 } },
    });
    github.expect({
      method: "PATCH",
      path: `${repoPath}/issues/5`,
      body: { state: "closed", state_reason: "not_planned" },
      reply: { body: {} },
    });
    const result = await ensureTrackingIssue(params());
    expect(result).toMatchObject({ action: "unchanged", number: 4 });
    expect(result.writes).toHaveLength(2);
  });

  it("looks through every page of issues", async () => {
    const issue = await openedIssue();
    const filler = Array.from({ length: 100 }, (_, i) => issueReply({ number: 100 + i, body: "unrelated" }));
    expectIssues(filler, 1);
    expectIssues([issue], 2);
    expect((await ensureTrackingIssue(params())).action).toBe("unchanged");
  });

  it("reads the issue kept from the last scan by its number once the list is past a page, not every page", async () => {
    const issue = await openedIssue();
    // 1,000 targets have 1,000 tracking issues: 10 pages a scan. The second page is not declared, so reading it fails.
    const filler = Array.from({ length: 100 }, (_, i) => issueReply({ number: 100 + i, body: "unrelated" }));
    expectIssues(filler, 1);
    github.expect({ method: "GET", path: `${repoPath}/issues/4`, reply: { body: issue } });
    const result = await ensureTrackingIssue(params({ known: 4 }));
    expect(result).toMatchObject({ action: "unchanged", number: 4 });
  });

  it("pages on when the kept number is no longer the target's issue (deleted, or another target's)", async () => {
    const issue = await openedIssue();
    const filler = Array.from({ length: 100 }, (_, i) => issueReply({ number: 100 + i, body: "unrelated" }));
    expectIssues(filler, 1);
    github.expect({ method: "GET", path: `${repoPath}/issues/77`, reply: { status: 410, body: { message: "gone" } } });
    expectIssues([issue], 2);
    expect(await ensureTrackingIssue(params({ known: 77 }))).toMatchObject({ action: "unchanged", number: 4 });

    expectIssues(filler, 1);
    github.expect({ method: "GET", path: `${repoPath}/issues/150`, reply: { body: filler[50] } });
    expectIssues([issue], 2);
    expect(await ensureTrackingIssue(params({ known: 150 }))).toMatchObject({ action: "unchanged", number: 4 });

    // Transferred: GitHub's 301 is followed to the issue in its new repository, which is not this target's.
    const moved = { ...issue, repository_url: "https://api.github.com/repos/acme/elsewhere" };
    expectIssues(filler, 1);
    github.expect({ method: "GET", path: `${repoPath}/issues/4`, reply: { body: moved } });
    expectIssues([issue], 2);
    expect(await ensureTrackingIssue(params({ known: 4 }))).toMatchObject({ action: "unchanged", number: 4 });
  });

  it("as a dry run, yields the records of the real run without writing", async () => {
    const issue = await openedIssue();
    const before = github.writes().length;
    expectIssues([issue]);
    const dry = await ensureTrackingIssue(params({ drift: null, dryRun: true }));
    expect(github.writes()).toHaveLength(before);
    expectIssues([issue]);
    github.expect({ method: "POST", path: `${repoPath}/issues/4/comments`, reply: { status: 201, body: { id: 1 } } });
    github.expect({ method: "PATCH", path: `${repoPath}/issues/4`, reply: { body: issue } });
    const real = await ensureTrackingIssue(params({ drift: null }));
    expect(dry).toEqual({ ...real, dryRun: true });
    expect(dry.writes).toHaveLength(2);
  });
});
