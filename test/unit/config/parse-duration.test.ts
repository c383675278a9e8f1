import { describe, expect, it } from "vitest";
import { parseDuration } from "../../../src/config/parse-duration.ts";

describe("parseDuration", () => {
  it.each([
    ["30s", 30_000],
    ["15m", 900_000],
    ["1h", 3_600_000],
    ["1h30m", 5_400_000],
    ["2h0m5s", 7_205_000],
  ])("reads %s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "15", "m", "1.5h", "30m1h", "15 m", "1d"])("is undefined for %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
