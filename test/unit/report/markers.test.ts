import { describe, expect, it } from "vitest";
import { capText, formatMarker, hasMarker, readMarker, withMarker } from "../../../src/report/markers.ts";

describe("markers", () => {
  it("writes a hidden marker and reads its fields back", () => {
    const marker = formatMarker("pr", { target: "infra", mode: "codify", fingerprint: "ab12" });
    expect(marker).toBe("<!-- undrift:pr target=infra mode=codify fingerprint=ab12 -->");
    expect(readMarker(`${marker}\n## Drift`, "pr")).toEqual({ target: "infra", mode: "codify", fingerprint: "ab12" });
    expect(readMarker(`${marker}\n## Drift`, "tracking")).toBeUndefined();
    expect(readMarker(null, "pr")).toBeUndefined();
  });

  it("matches by field, so one target's marker is not another's", () => {
    const body = formatMarker("tracking", { target: "infra-2" });
    expect(hasMarker(body, "tracking", { target: "infra-2" })).toBe(true);
    expect(hasMarker(body, "tracking", { target: "infra" })).toBe(false);
  });

  it("refuses a value that would break out of the HTML comment", () => {
    expect(() => formatMarker("tracking", { target: "a --> <script>" })).toThrow(RangeError);
    expect(() => formatMarker("tracking", { target: "a--b" })).toThrow(/cannot go into an HTML comment marker/);
  });

  it("caps a body to GitHub's limit at a line end, keeping the marker first and saying what was cut", () => {
    const marker = formatMarker("tracking", { target: "infra" });
    const body = "| a | b |\n".repeat(10_000);
    const capped = withMarker({ marker, body, maxLength: 5_000 });
    expect(capped.length).toBeLessThanOrEqual(5_000);
    expect(capped.startsWith(`${marker}\n| a | b |`)).toBe(true);
    expect(capped).toMatch(/\| a \| b \|\n\n_… \d+ more characters not shown \(GitHub's limit\)\._$/);
    expect(withMarker({ marker, body: "short" })).toBe(`${marker}\nshort`);
  });

  it("never splits a surrogate pair when cutting", () => {
    const text = "😀".repeat(100);
    const capped = capText({ text, maxLength: 80 });
    expect(capped.length).toBeLessThanOrEqual(80);
    expect(capped.isWellFormed()).toBe(true);
  });
});
