// How a channel's answer is judged: which statuses are retried, and how long a
// Retry-After (seconds or an HTTP date) holds the retry back.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { classifyError } from "../../../../src/queue/classify-error.ts";
import { retryBackoff } from "../../../../src/queue/retry-backoff.ts";
import { ChannelHttpError, postNotice } from "../../../../src/worker/notify/post-notice.ts";

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

  it("waits at least what Retry-After asks, in seconds or as a date, and at most an hour", async () => {
    const asked = async (retryAfter: string) => {
      const server = createServer((_, res) => res.writeHead(429, { "retry-after": retryAfter }).end());
      await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
      const { port } = server.address() as AddressInfo;
      try {
        const sent = postNotice({
          what: 'channel "ops" (slack)',
          url: `http://127.0.0.1:${port}/hook`,
          body: "{}",
          headers: {},
          signal: new AbortController().signal,
        });
        return ((await sent.catch((error: unknown) => error)) as ChannelHttpError).retryAfterMs;
      } finally {
        await new Promise((closed) => server.close(closed));
      }
    };
    expect(await asked("30")).toBe(30_000);
    const inAMinute = await asked(new Date(Date.now() + 60_000).toUTCString());
    expect(inAMinute).toBeGreaterThan(58_000);
    expect(inAMinute).toBeLessThanOrEqual(60_000);
    expect(await asked("86400")).toBe(3_600_000);
    expect(await asked("soon")).toBeUndefined();
  });

  it("backs off no sooner than the channel asked", () => {
    const job = { opts: { backoff: { type: "undrift-retry", delay: 5_000 } } } as never;
    expect(retryBackoff(1, "undrift-retry", answered(429, 30_000), job)).toBe(30_000);
    expect(retryBackoff(4, "undrift-retry", answered(503), job)).toBe(40_000);
  });
});
