// The failing check run a scan that failed for good leaves on the default
// branch head (what report-scan-failure.ts posts; the rest of that step writes
// to Redis): a refused cluster reads as a refusal with what to do, a config
// error points at its lines in the repository's own file, and no message
// carries a credential or a second line.
import { describe, expect, it } from "vitest";
import { ClusterAccessError } from "../../../src/config/cluster-registry.ts";
import { ConfigError } from "../../../src/config/config-error.ts";
import { postFailureCheck } from "../../../src/github/post-failure-check.ts";
import { checkRunReply, headSha, owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { type LoggedRequest, useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();

interface SentOutput {
  conclusion: string;
  output: { title: string; summary: string; annotations?: Array<Record<string, unknown>> };
}

/** Posts the failure check run for `error` and returns what GitHub was sent. */
async function posted(error: unknown): Promise<SentOutput> {
  const sent: { request?: LoggedRequest } = {};
  github.expect({
    method: "GET",
    path: `${repoPath}/commits/${headSha}/check-runs`,
    reply: { body: { total_count: 0, check_runs: [] } },
  });
  github.expect({
    method: "POST",
    path: `${repoPath}/check-runs`,
    body: { name: "undrift/shop", head_sha: headSha },
    reply: (request) => {
      sent.request = request;
      return { status: 201, body: checkRunReply({ name: "undrift/shop" }) };
    },
  });
  await postFailureCheck({ octokit: github.octokit(), owner, repo, headSha, target: "shop", error });
  return sent.request!.json as SentOutput;
}

describe("the failing check run of a scan that could not run", () => {
  it("reads as a refusal, saying nothing was read and what to do, when the registry does not allow the cluster", async () => {
    const error = new ClusterAccessError('cluster "prod" is not open to acme/gitops', {
      cluster: "prod",
      repository: "acme/gitops",
    });
    const { conclusion, output } = await posted(error);
    expect(conclusion).toBe("failure");
    expect(output.title).toBe('refused: cluster "prod" is not open to acme/gitops');
    expect(output.summary).toMatch(/^\*\*Refused\*\* for target `shop`:/);
    expect(output.summary).toContain("nothing is read from the cluster");
  });

  it("lists every config issue and annotates their lines in the repository's own file", async () => {
    const error = ConfigError.fromIssues(".github/undrift.yml", [
      { line: 4, path: "targets[0].mode", message: "must be one of warn, codify, revert, heal" },
      { line: 9, path: "targets[1].path", message: "required field is missing" },
    ]);
    const { output } = await posted(error);
    expect(output.title).toBe(
      "could not scan shop: .github/undrift.yml:4: targets[0].mode: must be one of warn, codify, revert, heal",
    );
    expect(output.summary).toContain("- .github/undrift.yml:9: targets[1].path: required field is missing");
    expect(output.annotations?.map((a) => [a.path, a.start_line, a.annotation_level])).toEqual([
      [".github/undrift.yml", 4, "failure"],
      [".github/undrift.yml", 9, "failure"],
    ]);
  });

  it("annotates no file of the server's own, and masks a credential in one line", async () => {
    const server = ConfigError.fromIssues("/etc/undrift/clusters.yaml", [{ line: 2, path: "", message: "bad" }]);
    expect((await posted(server)).output.annotations).toBeUndefined();
    const leaky = new Error("GET https://x:hunter2@registry.example/v2 failed\n    at fetch (node:internal)");
    const { output } = await posted(leaky);
    expect(output.title).toBe(
      "could not scan shop: GET https://***@registry.example/v2 failed at fetch (node:internal)",
    );
    expect(output.summary).not.toContain("hunter2");
  });
});
