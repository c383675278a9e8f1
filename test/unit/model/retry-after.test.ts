// One reading of Retry-After for GitHub, the API server and chat channels (RFC 9110: delay-seconds or an HTTP-date).
import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../../src/model/retry-after.ts";

const now = Date.parse("2026-12-02T12:00:00Z");

describe("Retry-After", () => {
  it("reads delay-seconds and the three HTTP-date forms, a date past being no wait", () => {
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 02 Dec 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wednesday, 02-Dec-26 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed Dec  2 12:00:05 2026", now)).toBe(5_000);
    expect(parseRetryAfter("Wed, 02 Dec 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(["7", "9"], now)).toBe(7_000);
  });

  it("takes an empty or malformed value as none, never as 'at once'", () => {
    // Number("") is 0 and V8's Date.parse reads "1.5" and "-1" as days in 2001: either would retry at once.
    for (const value of ["", "  ", "1.5", "-1", "soon", "2026-12-02", null, undefined]) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});
