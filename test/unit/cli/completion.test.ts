// `undrift completion bash|zsh`, sourced into a real shell as a user does, completing from the flag tables.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandSpecs } from "../../../src/cli/command-specs.ts";
import { undrift } from "../../helpers/run-cli.ts";

const run = promisify(execFile);
let dir: string;
let bashScript: string;
let zshScript: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "undrift-completion-"));
  const [bash, zsh] = await Promise.all([undrift(["completion", "bash"]), undrift(["completion", "zsh"])]);
  expect([bash.code, zsh.code, bash.stderr, zsh.stderr]).toEqual([0, 0, "", ""]);
  bashScript = join(dir, "undrift.bash");
  zshScript = join(dir, "_undrift");
  writeFileSync(bashScript, bash.stdout);
  writeFileSync(zshScript, zsh.stdout);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers for the words typed so far, the last one being completed. */
async function complete(...words: string[]): Promise<string[]> {
  const array = words.map((w) => `'${w}'`).join(" ");
  const { stdout } = await run("bash", [
    "-c",
    `source '${bashScript}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _undrift; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return stdout.split("\n").filter(Boolean);
}

describe("undrift completion bash", () => {
  it("completes command names", async () => {
    expect(await complete("undrift", "sc")).toEqual(["scan"]);
    expect(await complete("undrift", "")).toEqual(expect.arrayContaining(Object.keys(commandSpecs)));
  });

  it("completes a command's flags, the ones its parser takes", async () => {
    expect(await complete("undrift", "scan", "--co")).toEqual(["--context", "--color"]);
    expect(await complete("undrift", "revert", "--")).toEqual(
      expect.arrayContaining(["--prune", "--force-prune", "--dry-run", "--wait", "--no-wait", "--help"]),
    );
    // revert writes to the cluster and takes no --all: none is offered.
    expect(await complete("undrift", "revert", "--al")).toEqual([]);
  });

  it("completes the values of --output, -o, --color (also after =) and --propagation", async () => {
    expect(await complete("undrift", "scan", "--output", "")).toEqual(["text", "json", "markdown"]);
    expect(await complete("undrift", "codify", "-o", "")).toEqual(["text", "json"]);
    expect(await complete("undrift", "preview", "--color", "=", "a")).toEqual(["auto", "always"]);
    expect(await complete("undrift", "scan", "--color", "=")).toEqual(["auto", "always", "never"]);
    expect(await complete("undrift", "revert", "--propagation", "f")).toEqual(["foreground"]);
  });

  it("completes folders for --repo, the shells of completion, and commands after help", async () => {
    writeFileSync(join(dir, "a-file"), "");
    expect(await complete("undrift", "scan", "--repo", `${tmpdir()}/undrift-completion-`)).toContain(dir);
    expect(await complete("undrift", "validate", "--repo", `${dir}/`)).not.toContain(join(dir, "a-file"));
    expect(await complete("undrift", "completion", "")).toEqual(["bash", "zsh"]);
    expect(await complete("undrift", "help", "va")).toEqual(["validate"]);
  });

  it("refuses a shell it has no script for, naming the ones it has", async () => {
    const result = await undrift(["completion", "fish"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: 'completion: expected one of bash, zsh, got "fish"\n' });
  });
});

describe("undrift completion zsh", () => {
  // zsh comes with .ci/run (Debian's package); without it this test fails rather than skip.
  it("is a script zsh parses", async () => {
    await run("zsh", ["-n", zshScript]);
  });

  it("names every command and every flag with its choices", async () => {
    const { stdout } = await undrift(["completion", "zsh"]);
    expect(stdout.split("\n")[0]).toBe("#compdef undrift");
    for (const [name, spec] of Object.entries(commandSpecs)) {
      expect(stdout).toContain(`    ${name})\n`);
      for (const long of Object.keys(spec.flags)) expect(stdout, `${name} --${long}`).toContain(`--${long}`);
    }
    expect(stdout).toContain("{-o+,--output=}'[the format]:text json markdown:(text json markdown)'");
    expect(stdout).toContain(":auto always never:(auto always never)");
  });
});
