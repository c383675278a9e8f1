// The app's Octokit against GitHub's failures, request by request (the
// OpenAPI-checked mock): which are re-sent in place, after how long, and which
// are left to the queue's retry of the whole scan (rate limits of every kind).
import { describe, expect, it } from "vitest";
import { AppOctokit, createsOnResend } from "../../../src/github/app-octokit.ts";
import { classifyGitHubError } from "../../../src/github/github-errors.ts";
import { metrics } from "../../../src/metrics/undrift-metrics.ts";
import { type MockReply, useGitHubMock } from "../../helpers/github-mock.ts";

const github = useGitHubMock();
const octokit = () =>
  new AppOctokit({ auth: { token: "ghs_test" }, log: { debug() {}, info() {}, warn() {}, error() {} } });
const issue = { title: "Drift", body: "report" };
const failure = (status: number, message: string, headers: Record<string, string> = {}): MockReply => ({
  status,
  body: { message },
  headers,
});
const gap = () => (github.requests[1]?.at ?? 0) - (github.requests[0]?.at ?? 0);

describe("AppOctokit", () => {
  it("does not re-send an issue create that GitHub answered with a 502: GitHub may have created it", async () => {
    github.expect({ method: "POST", path: "/repos/acme/gitops/issues", reply: failure(502, "Server Error") });
    const sent = octokit().request("POST /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops", ...issue });
    await expect(sent).rejects.toMatchObject({ status: 502 });
    expect(github.requests).toHaveLength(1);
  });

  it("re-sends a read that GitHub answered with a 503, a second later", async () => {
    github.expect({ method: "GET", path: "/repos/acme/gitops/issues", reply: failure(503, "Service Unavailable") });
    github.expect({ method: "GET", path: "/repos/acme/gitops/issues", reply: { body: [] } });
    const { data } = await octokit().request("GET /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops" });
    expect(data).toEqual([]);
    expect(gap()).toBeGreaterThanOrEqual(1000);
  });

  it("leaves a 429 to the queue, with GitHub's Retry-After on the error, rather than re-sending it sooner", async () => {
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/check-runs",
      reply: failure(429, "Too Many Requests", { "retry-after": "7", "x-ratelimit-remaining": "100" }),
    });
    const sent = octokit().request("POST /repos/{owner}/{repo}/check-runs", {
      owner: "acme",
      repo: "gitops",
      name: "undrift/infra",
      head_sha: "a".repeat(40),
    });
    await expect(sent).rejects.toMatchObject({ status: 429, response: { headers: { "retry-after": "7" } } });
    expect(github.requests).toHaveLength(1);
  });

  it("leaves a secondary rate limit to the queue, with its Retry-After on the error, rather than waiting in place", async () => {
    // A webhook is answered at once, and a job's retry waits Retry-After (src/queue/retry-backoff.ts).
    github.expect({
      method: "POST",
      path: "/repos/acme/gitops/issues",
      reply: failure(403, "You have exceeded a secondary rate limit. Please wait.", {
        "retry-after": "1",
        "x-ratelimit-remaining": "4000",
      }),
    });
    const sent = octokit().request("POST /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops", ...issue });
    const error = await sent.catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403 });
    expect(classifyGitHubError(error)).toEqual({ kind: "rate-limited", status: 403, retryAfterMs: 1000 });
    expect(github.requests).toHaveLength(1);
  });

  it("leaves a used-up quota to the queue, which waits for its reset, rather than waiting in place", async () => {
    const reset = Math.ceil(Date.now() / 1000) + 600;
    github.expect({
      method: "GET",
      path: "/repos/acme/gitops/issues",
      reply: failure(403, "API rate limit exceeded for installation ID 77.", {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(reset),
      }),
    });
    const sent = octokit().request("GET /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops" });
    const error = await sent.catch((e: unknown) => e);
    expect(classifyGitHubError(error)).toMatchObject({ kind: "rate-limited", status: 403 });
    expect(classifyGitHubError(error)?.retryAfterMs).toBeGreaterThan(590_000);
    expect(github.requests).toHaveLength(1);
  });

  it("names the POSTs a re-send cannot duplicate", () => {
    expect(createsOnResend("POST", "/repos/{owner}/{repo}/issues")).toBe(true);
    expect(createsOnResend("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments")).toBe(true);
    expect(createsOnResend("POST", "/repos/{owner}/{repo}/pulls")).toBe(true);
    expect(createsOnResend("POST", "/repos/{owner}/{repo}/git/trees")).toBe(false);
    expect(createsOnResend("POST", "https://ghe.example/api/v3/repos/acme/gitops/git/commits")).toBe(false);
    expect(createsOnResend("POST", "/app/installations/{installation_id}/access_tokens")).toBe(false);
    expect(createsOnResend("PATCH", "/repos/{owner}/{repo}/issues/{issue_number}")).toBe(false);
  });
});

describe("AppOctokit on /metrics", () => {
  const count = async (status: string) => {
    const values = (await metrics.githubRequests.get()).values;
    return values.find((v) => v.labels.status === status)?.value ?? 0;
  };

  it("counts GitHub's answers by status and keeps the installation's remaining rate limit", async () => {
    const [ok, notFound] = [await count("200"), await count("404")];
    github.expect({
      method: "GET",
      path: "/repos/acme/gitops/issues",
      reply: { body: [], headers: { "x-ratelimit-remaining": "4321" } },
    });
    github.expect({ method: "GET", path: "/repos/acme/gitops/issues", reply: failure(404, "Not Found") });
    const installation = new AppOctokit({
      auth: { token: "ghs_test", installationId: 77 },
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    await installation.request("GET /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops" });
    await expect(
      installation.request("GET /repos/{owner}/{repo}/issues", { owner: "acme", repo: "gitops" }),
    ).rejects.toMatchObject({ status: 404 });
    expect([await count("200"), await count("404")]).toEqual([ok + 1, notFound + 1]);
    const limit = (await metrics.githubRateLimit.get()).values.find((v) => v.labels.installation === "77");
    expect(limit?.value).toBe(4321);
  });
});
