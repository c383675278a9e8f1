import { RequestError } from "octokit";
import { describe, expect, it } from "vitest";
import {
  classifyGitHubError,
  GitHubError,
  githubStep,
  isTransientGitHubError,
} from "../../../src/github/github-errors.ts";
import { SnapshotError } from "../../../src/github/snapshot-error.ts";

const repo = { owner: "acme", repo: "gitops" };
const request = { method: "GET" as const, url: "https://api.github.com/x", headers: {} };

function answer(status: number, message: string, headers: Record<string, string> = {}) {
  return new RequestError(message, status, {
    request,
    response: { status, url: request.url, headers, data: { message } },
  });
}

describe("classifying GitHub's answers", () => {
  it.each([
    [500, {}, "Server Error", "transient"],
    [502, {}, "Bad Gateway", "transient"],
    [409, {}, "Reference update conflict", "transient"],
    [401, {}, "Bad credentials", "permission"],
    [403, {}, "Resource not accessible by integration", "permission"],
    [404, {}, "Not Found", "permission"],
    [422, {}, "Validation Failed", "invalid"],
    [429, {}, "Too many requests", "rate-limited"],
    [403, { "x-ratelimit-remaining": "0" }, "API rate limit exceeded", "rate-limited"],
    [403, {}, "You have exceeded a secondary rate limit", "rate-limited"],
  ] as const)("%i %j (%s) is %s", (status, headers, message, kind) => {
    expect(classifyGitHubError(answer(status, message, headers))?.kind).toBe(kind);
  });

  it("takes the wait from Retry-After, or from the quota's reset time", () => {
    expect(classifyGitHubError(answer(429, "slow down", { "retry-after": "30" }))).toEqual({
      kind: "rate-limited",
      status: 429,
      retryAfterMs: 30_000,
    });
    const now = 1_700_000_000_000;
    const reset = String(now / 1000 + 90);
    const quota = answer(403, "API rate limit exceeded", { "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset });
    expect(classifyGitHubError(quota, now)?.retryAfterMs).toBe(90_000);
  });

  it("waits a minute after a secondary rate limit that named no wait, as GitHub's docs ask", () => {
    const secondary = answer(403, "You have exceeded a secondary rate limit. Please wait.");
    expect(classifyGitHubError(secondary)?.retryAfterMs).toBe(60_000);
    const named = answer(429, "You have exceeded a secondary rate limit.", { "retry-after": "5" });
    expect(classifyGitHubError(named)?.retryAfterMs).toBe(5_000);
  });

  it("reads an empty or malformed Retry-After as none, not as 'retry at once', and a date as a date", () => {
    // Number("") is 0: an empty header once made the retry come at once, which extends a secondary limit.
    const empty = answer(403, "You have exceeded a secondary rate limit.", { "retry-after": "" });
    expect(classifyGitHubError(empty)?.retryAfterMs).toBe(60_000);
    const now = Date.parse("2026-12-02T12:00:00Z");
    const dated = answer(429, "slow down", { "retry-after": "Wed, 02 Dec 2026 12:00:45 GMT" });
    expect(classifyGitHubError(dated, now)?.retryAfterMs).toBe(45_000);
  });

  it("counts a request that got no answer at all as transient", () => {
    const offline = new RequestError("getaddrinfo EAI_AGAIN api.github.com", 500, { request });
    expect(classifyGitHubError(offline)).toEqual({ kind: "transient", status: 500 });
  });

  it("leaves errors that did not come from GitHub alone", async () => {
    expect(classifyGitHubError(new TypeError("x is undefined"))).toBeUndefined();
    const bug = new TypeError("x is undefined");
    await expect(githubStep({ repo, step: "s", run: () => Promise.reject(bug) })).rejects.toBe(bug);
  });

  it("names the repository and step, keeping the cause", async () => {
    const cause = answer(403, "Resource not accessible by integration");
    const error = await githubStep({
      repo,
      step: "open tracking issue for infra",
      run: () => Promise.reject(cause),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect(error).toMatchObject({
      message: "acme/gitops: open tracking issue for infra: 403: Resource not accessible by integration",
      kind: "permission",
      status: 403,
      step: "open tracking issue for infra",
      repository: "acme/gitops",
      retryable: false,
      cause,
    });
  });

  it("gives the queue its verdict: retry, fail for good, or not mine", () => {
    expect(isTransientGitHubError(new GitHubError({ repo, step: "s", error: answer(503, "busy") }))).toBe(true);
    expect(isTransientGitHubError(new GitHubError({ repo, step: "s", error: answer(403, "no") }))).toBe(false);
    expect(isTransientGitHubError(answer(429, "slow down"))).toBe(true);
    expect(isTransientGitHubError(answer(422, "invalid"))).toBe(false);
    expect(isTransientGitHubError(new SnapshotError("unsafe", "evil: a symbolic link"))).toBe(false);
    expect(isTransientGitHubError(Object.assign(new Error("Forbidden"), { status: 403 }))).toBeUndefined();
  });
});
