import { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { checkRunName, type EnsureCheckRunParams, ensureCheckRun } from "../../../src/github/ensure-check-run.ts";
import type { GitHubClient } from "../../../src/github/github-client.ts";
import { GitHubError } from "../../../src/github/github-errors.ts";
import { checkRunReply, headSha, owner, repo, repoPath } from "../../helpers/github/responses.ts";
import { type LoggedRequest, useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const name = checkRunName("infra");
const listPath = `${repoPath}/commits/${headSha}/check-runs`;

function params(overrides: Partial<EnsureCheckRunParams> = {}): EnsureCheckRunParams {
  return {
    octokit: github.octokit(),
    owner,
    repo,
    name,
    headSha,
    conclusion: "neutral",
    output: { title: "1 drifted", summary: "Deployment shop/web: `/spec/replicas` 3 → 5" },
    ...overrides,
  };
}

function expectList(runs: unknown[]) {
  github.expect({
    method: "GET",
    path: listPath,
    query: { check_name: name, filter: "latest" },
    reply: { body: { total_count: runs.length, check_runs: runs } },
  });
}

/** Creates the check run once and returns what GitHub would list afterwards. */
async function createdRun(p: EnsureCheckRunParams) {
  let sent: LoggedRequest | undefined;
  expectList([]);
  github.expect({
    method: "POST",
    path: `${repoPath}/check-runs`,
    reply: (req) => {
      sent = req;
      return { status: 201, body: checkRunReply({ id: 11, name }) };
    },
  });
  await ensureCheckRun(p);
  const json = sent?.json as { external_id: string };
  return checkRunReply({ id: 11, name, external_id: json.external_id });
}

describe("ensureCheckRun", () => {
  it("creates a completed check run named after the target on the head commit", async () => {
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      body: {
        name: "undrift/infra",
        head_sha: headSha,
        status: "completed",
        conclusion: "neutral",
        output: { title: "1 drifted" },
      },
      reply: { status: 201, body: checkRunReply({ id: 11, name }) },
    });
    const result = await ensureCheckRun(params());
    expect(result).toEqual({
      action: "created",
      dryRun: false,
      id: 11,
      url: `https://github.com/${owner}/${repo}/runs/11`,
      writes: [
        { route: "POST /repos/{owner}/{repo}/check-runs", summary: "create check run undrift/infra on 4b825dc" },
      ],
    });
  });

  it("writes nothing when the same output is ensured again", async () => {
    const run = await createdRun(params());
    expectList([run]);
    const before = github.writes().length;
    const result = await ensureCheckRun(params());
    expect(result.action).toBe("unchanged");
    expect(github.writes()).toHaveLength(before);
    expect(result.writes).toEqual([]);
  });

  it("updates the run in place when the conclusion or output changes", async () => {
    const run = await createdRun(params());
    expectList([run]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/check-runs/11`,
      body: { conclusion: "success", output: { title: "in sync" } },
      reply: { body: run },
    });
    const result = await ensureCheckRun(params({ conclusion: "success", output: { title: "in sync", summary: "" } }));
    expect(result.action).toBe("updated");
    expect(result.id).toBe(11);
  });

  it("takes over a run still in progress, even with the same output", async () => {
    const run = await createdRun(params());
    expectList([{ ...run, status: "in_progress" }]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/check-runs/11`,
      body: { status: "completed" },
      reply: { body: run },
    });
    expect((await ensureCheckRun(params())).action).toBe("updated");
  });

  it("filters by app id when given, so another app's run of the same name is not ours", async () => {
    github.expect({
      method: "GET",
      path: listPath,
      query: { check_name: name, app_id: 42 },
      reply: { body: { total_count: 0, check_runs: [] } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: { status: 201, body: checkRunReply({ name }) },
    });
    expect((await ensureCheckRun(params({ appId: 42 }))).action).toBe("created");
  });

  it("caps summary and text at GitHub's 65,535 characters, saying so", async () => {
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      body: (json) => {
        const output = (json as { output: { summary: string; text: string } }).output;
        return (
          output.summary.length <= 65_535 &&
          output.text.length <= 65_535 &&
          /more characters not shown/.test(output.text)
        );
      },
      reply: { status: 201, body: checkRunReply({ name }) },
    });
    const long = "| row |\n".repeat(20_000);
    await ensureCheckRun(params({ output: { title: "big", summary: long, text: long } }));
  });

  it("sends at most 50 annotations, and none again to a run that has some (GitHub appends them)", async () => {
    const annotations = Array.from({ length: 60 }, (_, i) => ({
      path: ".github/undrift.yml",
      startLine: i + 1,
      level: "failure" as const,
      message: `targets[${i}].mode: invalid`,
    }));
    expectList([checkRunReply({ name, annotations: 50 })]);
    github.expect({
      method: "PATCH",
      path: `${repoPath}/check-runs/11`,
      body: (json) => !("annotations" in (json as { output: object }).output),
      reply: { body: checkRunReply({ name }) },
    });
    await ensureCheckRun(
      params({ conclusion: "failure", output: { title: "invalid config", summary: "x", annotations } }),
    );
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      body: (json) => (json as { output: { annotations: unknown[] } }).output.annotations.length === 50,
      reply: { status: 201, body: checkRunReply({ name }) },
    });
    await ensureCheckRun(
      params({ conclusion: "failure", output: { title: "invalid config", summary: "x", annotations } }),
    );
  });

  it("as a dry run, reads the same and yields the same records without writing", async () => {
    const run = await createdRun(params());
    const changed = params({ conclusion: "failure" });
    expectList([run]);
    const writesBefore = github.writes().length;
    const dry = await ensureCheckRun({ ...changed, dryRun: true });
    expect(github.writes()).toHaveLength(writesBefore);
    expectList([run]);
    github.expect({ method: "PATCH", path: `${repoPath}/check-runs/11`, reply: { body: run } });
    const real = await ensureCheckRun(changed);
    expect(dry).toEqual({ ...real, dryRun: true });
    expect(dry.writes).toEqual([
      {
        route: "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}",
        summary: "update check run undrift/infra on 4b825dc",
      },
    ]);
  });

  it("is retried by octokit's retry plugin on a 500, creating one run", async () => {
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: { status: 500, body: { message: "boom" } },
    });
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: { status: 201, body: checkRunReply({ name }) },
    });
    const result = await ensureCheckRun(params({ octokit: github.octokit({ retries: 2 }) }));
    expect(result.action).toBe("created");
    expect(github.writes().map((r) => r.status)).toEqual([500, 201]);
  });

  it("surfaces a 500 that outlasts the retries as a transient GitHubError naming the step", async () => {
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: { status: 502, body: { message: "Bad gateway" } },
    });
    const error = await ensureCheckRun(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect(error).toMatchObject({ kind: "transient", status: 502, retryable: true });
    expect((error as Error).message).toBe("acme/gitops: create check run undrift/infra on 4b825dc: 502: Bad gateway");
  });

  it("surfaces a 403 as a permission error that is not worth a retry", async () => {
    github.expect({
      method: "GET",
      path: listPath,
      reply: { status: 403, body: { message: "Resource not accessible by integration" } },
    });
    await expect(ensureCheckRun(params())).rejects.toMatchObject({
      name: "GitHubError",
      kind: "permission",
      retryable: false,
    });
  });

  it("works with Probot's octokit, which the app passes in", async () => {
    const probot: GitHubClient = new ProbotOctokit({ retry: { enabled: false }, throttle: { enabled: false } });
    expectList([]);
    github.expect({
      method: "POST",
      path: `${repoPath}/check-runs`,
      reply: { status: 201, body: checkRunReply({ name }) },
    });
    expect((await ensureCheckRun(params({ octokit: probot }))).action).toBe("created");
  });
});
