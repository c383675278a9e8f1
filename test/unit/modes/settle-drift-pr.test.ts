// What codify and revert do with their pull request when a scan finds no
// drift: close it with a comment, unless some objects could not be compared
// (the drift may hide there, so closing would be a guess), and keep going when
// there is drift.
import { describe, expect, it } from "vitest";
import type { DriftReport } from "../../../src/model/types.ts";
import type { ModeResult } from "../../../src/modes/mode-result.ts";
import { settleWithoutDrift } from "../../../src/modes/settle-drift-pr.ts";
import { owner, pullReply, repo, repoPath } from "../../helpers/github/responses.ts";
import { useGitHubMock } from "../../helpers/github-mock.ts";
import { sampleReport } from "../report/sample-report.ts";

const github = useGitHubMock();
const branch = "undrift/codify/infra";

/** The sample report with only its in-sync objects: no drift. */
function inSync(problems: DriftReport["problems"] = []): DriftReport {
  const report = sampleReport();
  const resources = report.resources.filter((r) => r.status === "in-sync");
  return { ...report, resources, summary: { inSync: resources.length, drifted: 0, missing: 0, orphaned: 0 }, problems };
}

async function settle(report: DriftReport) {
  const result: ModeResult = { done: [], lines: [] };
  const settled = await settleWithoutDrift({
    octokit: github.octokit(),
    owner,
    repo,
    target: "infra",
    mode: "codify",
    report,
    result,
  });
  return { settled, result };
}

describe("a drift PR when the drift is gone", () => {
  it("is closed with a comment naming the revision, its branch deleted, and the check run says so", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { head: `${owner}:${branch}` },
      reply: { body: [pullReply({ number: 12, head: branch })] },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/issues/12/comments`,
      body: (json) => /gone for target `infra` at `4b825dc642cb`/.test((json as { body: string }).body),
      reply: { status: 201, body: { id: 1 } },
    });
    github.expect({ method: "PATCH", path: `${repoPath}/pulls/12`, body: { state: "closed" }, reply: { body: {} } });
    github.expect({ method: "DELETE", path: `${repoPath}/git/refs/heads/${branch}`, reply: { status: 204 } });
    const { settled, result } = await settle(inSync());
    expect(settled).toBe(true);
    expect(result.lines).toEqual(["Pull request #12 was closed: the drift is gone."]);
    expect(result.done.map((d) => [d.event, d.summary])).toEqual([["pr-closed", "closed pull request #12"]]);
  });

  it("is left open, without a request to GitHub, when some objects could not be compared", async () => {
    const { settled, result } = await settle(inSync([{ group: "", kind: "Secret", message: "forbidden" }]));
    expect(settled).toBe(true);
    expect(github.requests).toEqual([]);
    expect(result.lines).toEqual(["Some objects could not be compared, so an open pull request is left as it is."]);
  });

  it("says nothing and writes nothing when there was no PR to close", async () => {
    github.expect({
      method: "GET",
      path: `${repoPath}/pulls`,
      query: { head: `${owner}:${branch}` },
      reply: { body: [] },
    });
    const { settled, result } = await settle(inSync());
    expect(settled).toBe(true);
    expect(result).toEqual({ done: [], lines: [] });
  });

  it("hands back to the mode, untouched, when there is drift", async () => {
    const { settled, result } = await settle(sampleReport());
    expect(settled).toBe(false);
    expect(github.requests).toEqual([]);
    expect(result).toEqual({ done: [], lines: [] });
  });
});
