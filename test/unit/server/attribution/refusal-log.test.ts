// A flood of refused posts makes one log line a minute, each with the count since the last.
import { afterEach, describe, expect, it, vi } from "vitest";
import { REFUSAL_LOG_MS, refusalLog } from "../../../../src/server/attribution/refusal-log.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("refusalLog", () => {
  it("says the first refusal at once, then one line a minute with how many came since", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-07T10:00:00Z"));
    const lines: Array<[number, string]> = [];
    const refused = refusalLog((count, cluster: string) => lines.push([count, cluster]));
    refused("prod");
    for (let i = 0; i < 500; i++) refused("prod");
    expect(lines).toEqual([[1, "prod"]]);
    vi.setSystemTime(Date.now() + REFUSAL_LOG_MS);
    refused("staging");
    expect(lines).toEqual([
      [1, "prod"],
      [501, "staging"],
    ]);
  });
});
