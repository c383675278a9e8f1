// `undrift <command> --help`, `-h` and `undrift help <command>`, run as a user runs them.
import { describe, expect, it } from "vitest";
import { commandSpecs } from "../../../src/cli/command-specs.ts";
import { undrift } from "../../helpers/run-cli.ts";

describe("undrift <command> --help", () => {
  it.each(Object.keys(commandSpecs))(
    "%s --help prints its usage, every flag with a description, and examples",
    async (name) => {
      const { code, stdout, stderr } = await undrift([name, "--help"]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      const lines = stdout.split("\n");
      expect(lines[0]).toMatch(new RegExp(`^undrift ${name}: \\w`));
      expect(lines[lines.indexOf("Usage:") + 1]).toMatch(new RegExp(`^  undrift ${name}\\b`));
      for (const [flag, spec] of Object.entries(commandSpecs[name]!.flags)) {
        const line = lines.find((l) => new RegExp(`^  (-\\w, )? *--${flag}\\b`).test(l));
        expect(line, `--${flag}`).toContain(spec.description);
      }
      expect(lines.some((l) => /^ {2}-h, --help +this text$/.test(l))).toBe(true);
      expect(lines[lines.indexOf("Examples:") + 1]).toMatch(new RegExp(`^  undrift ${name}\\b`));
    },
  );

  it("scan's help names its required flags and its outputs", async () => {
    const { stdout } = await undrift(["scan", "--help"]);
    expect(stdout).toContain("  undrift scan --repo DIR --target NAME [options]\n");
    expect(stdout).toMatch(/-o, --output text\|json\|markdown +the format \(default: text\)/);
  });

  it("-h among other flags prints the help instead of running the command", async () => {
    const { code, stdout } = await undrift(["revert", "--repo", "/nonexistent", "--prune", "-h"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^undrift revert: /);
    expect(stdout).toMatch(/--force-prune +lift the prune guards/);
  });

  it("undrift help <command> prints the same as <command> --help", async () => {
    const [viaHelp, viaFlag] = await Promise.all([undrift(["help", "preview"]), undrift(["preview", "--help"])]);
    expect(viaHelp).toEqual(viaFlag);
    expect(viaHelp.stdout).toContain("--base REF");
  });

  it("help of a command that does not exist is a usage error", async () => {
    const { code, stderr } = await undrift(["help", "scna"]);
    expect(code).toBe(2);
    expect(stderr).toBe('unknown command "scna" (try undrift --help)\n');
  });

  it("undrift --help still prints the overview, and points at the commands' help", async () => {
    const { code, stdout } = await undrift(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^undrift: turns Kubernetes drift/);
    expect(stdout).toContain("undrift <command> --help");
  });
});
