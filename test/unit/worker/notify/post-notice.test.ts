// How a channel's answer is judged: which statuses are retried, and how long a
// Retry-After (seconds or an HTTP date) holds the retry back.
import { describe, expect, it } from "vitest";
import { classifyError } from "../../../../src/queue/classify-error.ts";
import { retryBackoff } from "../../../../src/queue/retry-backoff.ts";
import { ChannelHttpError, parseRetryAfter } from "../../../../src/worker/notify/post-notice.ts";

const answered = (status: number, retryAfterMs?: number) =>
  new ChannelHttpError(`channel "ops" (slack): answered ${status}`, {
    status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

describe("a channel's answer", () => {
  it("retries 5xx, 429 and 408, and fails for good on any other 4xx (a revoked Slack webhook answers 404 or 410)", () => {
    for (const status of [500, 502, 503, 429, 408]) expect(classifyError(answered(status))).toBe("transient");
    for (const status of [400, 401, 403, 404, 410, 413]) expect(classifyError(answered(status))).toBe("permanent");
  });

  it("waits at least what Retry-After asks, in seconds or as a date, and at most an hour", () => {
    const now = Date.parse("2026-12-02T12:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 02 Dec 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wed, 02 Dec 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("86400", now)).toBe(3_600_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    const job = { opts: { backoff: { type: "undrift-retry", delay: 5_000 } } } as never;
    expect(retryBackoff(1, "undrift-retry", answered(429, 30_000), job)).toBe(30_000);
    expect(retryBackoff(4, "undrift-retry", answered(503), job)).toBe(40_000);
  });
});
