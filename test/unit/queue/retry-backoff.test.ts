import type { MinimalJob } from "bullmq";
import { describe, expect, it } from "vitest";
import { GitHubError } from "../../../src/github/github-errors.ts";
import { retryBackoff } from "../../../src/queue/retry-backoff.ts";

const job = { opts: { backoff: { type: "undrift-retry", delay: 15_000 } } } as unknown as MinimalJob;
const repo = { owner: "acme", repo: "gitops" };
const limited = (headers: Record<string, string>, status = 429) =>
  new GitHubError({
    repo,
    step: "create check run",
    error: Object.assign(new Error("Too Many Requests"), { status, response: { headers } }),
  });

describe("retryBackoff", () => {
  it("doubles the first delay with each attempt, as BullMQ's exponential backoff does", () => {
    expect([1, 2, 3, 4].map((n) => retryBackoff(n, "undrift-retry", new Error("boom"), job))).toEqual([
      15_000, 30_000, 60_000, 120_000,
    ]);
  });

  it("waits at least what GitHub's Retry-After asked, also through a wrapper", () => {
    const error = limited({ "retry-after": "90" });
    expect(retryBackoff(1, "undrift-retry", error, job)).toBe(90_000);
    expect(retryBackoff(1, "undrift-retry", new Error("scan failed", { cause: error }), job)).toBe(90_000);
    // A later attempt whose backoff is longer already keeps its own.
    expect(retryBackoff(4, "undrift-retry", error, job)).toBe(120_000);
  });

  it("waits for an exhausted quota's reset", () => {
    const reset = Math.floor(Date.now() / 1000) + 600;
    const error = limited({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) }, 403);
    expect(retryBackoff(1, "undrift-retry", error, job)).toBeGreaterThan(590_000);
  });
});
