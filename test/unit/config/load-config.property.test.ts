// The config loader on random YAML/JSON-ish text: a ConfigError or a config, never another error, never a hang.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { loadConfig } from "../../../src/config/load-config.ts";

const token = fc.constantFrom(
  "targets:",
  "  - name: a",
  "    cluster: c",
  "    path: p",
  "{",
  "}",
  "[",
  "]",
  ": ",
  "- ",
  "---",
  "&a",
  "*a",
  "<<: *a",
  ".nan",
  ".inf",
  "!!binary",
  "'",
  '"',
  "#",
  "\n",
  "  ",
  "schedule: 1m",
  "ignoreDifferences:",
  "jqPathExpressions: ['.a']",
  "jsonPointer: [/x]",
  "maxPrunePercent:",
  "9".repeat(30),
  "~",
  "?",
  "|",
  ">",
);

describe("loadConfig on random input", () => {
  it("throws only ConfigError, quickly", { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(token, { maxLength: 60 }).map((t) => t.join("")),
          fc.string({ maxLength: 200 }),
        ),
        (text) => {
          // CPU time, not the wall clock: the work the load did, which a busy machine does not add to.
          const cpu = process.cpuUsage();
          try {
            loadConfig(text);
          } catch (error) {
            expect(error).toBeInstanceOf(ConfigError);
            expect((error as Error).message).not.toContain("\n");
          }
          const used = process.cpuUsage(cpu);
          expect((used.user + used.system) / 1000).toBeLessThan(5_000);
        },
      ),
      { numRuns: 300 },
    );
  });
});
