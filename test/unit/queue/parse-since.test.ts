import { describe, expect, it } from "vitest";
import { parseSince, SinceError } from "../../../src/queue/parse-since.ts";

const now = new Date("2026-11-30T12:00:00.000Z");

describe("parseSince", () => {
  it("counts spans back from now", () => {
    expect(parseSince("90m", now).toISOString()).toBe("2026-11-30T10:30:00.000Z");
    expect(parseSince("24h", now).toISOString()).toBe("2026-11-29T12:00:00.000Z");
    expect(parseSince("7d", now).toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(parseSince("1d12h", now).toISOString()).toBe("2026-11-29T00:00:00.000Z");
  });

  it("reads ISO dates and date-times, a zoneless one as UTC", () => {
    expect(parseSince("2026-11-01", now).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(parseSince("2026-11-01T08:15:00Z", now).toISOString()).toBe("2026-11-01T08:15:00.000Z");
    expect(parseSince("2026-11-01T08:15", now).toISOString()).toBe("2026-11-01T08:15:00.000Z");
    expect(parseSince("2026-11-01T08:15:00+02:00", now).toISOString()).toBe("2026-11-01T06:15:00.000Z");
  });

  it("says what it expected when given something else", () => {
    expect(() => parseSince("yesterday", now)).toThrow(SinceError);
    expect(() => parseSince("yesterday", now)).toThrow(/--since: expected a date .* got "yesterday"/);
    expect(() => parseSince("2026-13-45", now)).toThrow(SinceError);
    expect(() => parseSince("", now)).toThrow(SinceError);
  });
});
