import { describe, expect, it } from "vitest";
import { jitterOffset } from "../../../src/queue/jitter-offset.ts";

const FIFTEEN_MINUTES = 15 * 60_000;

describe("jitterOffset", () => {
  it("gives a target the same offset every time, so a resync at boot changes nothing", () => {
    expect(jitterOffset("acme/gitops#infra", FIFTEEN_MINUTES)).toBe(jitterOffset("acme/gitops#infra", FIFTEEN_MINUTES));
  });

  it("stays inside the period and is never 0 (BullMQ would derive an offset from the clock)", () => {
    for (let i = 0; i < 500; i++) {
      const offset = jitterOffset(`acme/repo-${i}#t`, 2);
      expect(offset).toBe(1);
      const wide = jitterOffset(`acme/repo-${i}#t`, FIFTEEN_MINUTES);
      expect(wide).toBeGreaterThanOrEqual(1);
      expect(wide).toBeLessThan(FIFTEEN_MINUTES);
    }
  });

  it("spreads a hundred targets over the period instead of firing them together", () => {
    const tenths = new Set<number>();
    const offsets = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const offset = jitterOffset(`acme/gitops#target-${i}`, FIFTEEN_MINUTES);
      offsets.add(offset);
      tenths.add(Math.floor((offset / FIFTEEN_MINUTES) * 10));
    }
    expect(offsets.size).toBe(100);
    expect(tenths.size).toBe(10);
  });

  it("refuses a period too short to have an offset", () => {
    expect(() => jitterOffset("acme/gitops#infra", 1)).toThrow(RangeError);
    expect(() => jitterOffset("acme/gitops#infra", 1.5)).toThrow(RangeError);
  });
});
