// Careless and hostile config files: each gets one line naming file, line and field, never a crash or a hang.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { loadConfig, readRepoConfig } from "../../../src/config/load-config.ts";

const lines = (...text: string[]) => `${text.join("\n")}\n`;
const target = "targets: [{name: a, cluster: c, path: p";

function messageOf(text: string): string {
  try {
    loadConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected loadConfig to throw a ConfigError");
}

describe("loadConfig: unclear errors made clear", () => {
  it("names the line where a second YAML document starts", () => {
    expect(messageOf(lines(`${target}}]`, "---", "schedule: 1m"))).toBe(
      ".github/undrift.yml:2: a second YAML document starts here; the config is one document (remove the `---` or split the file)",
    );
  });

  it("says .nan and .inf are not numbers a setting can hold", () => {
    expect(messageOf(`${target}, maxPrunePercent: .nan}]\n`)).toBe(
      ".github/undrift.yml:1: targets[0].maxPrunePercent: expected a number, got NaN (.nan)",
    );
    expect(messageOf(`${target}, maxPrunePercent: .inf}]\n`)).toBe(
      ".github/undrift.yml:1: targets[0].maxPrunePercent: expected a number, got infinity (.inf)",
    );
  });

  it("names the key meant by a typo in an ignore rule, not the list it left empty", () => {
    const text = lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: p",
      "    ignoreDifferences:",
      "      - kind: Service",
      "        jsonPointer: [/spec/replicas]",
    );
    expect(messageOf(text)).toBe(
      '.github/undrift.yml:7: targets[0].ignoreDifferences[0].jsonPointer: unknown field; did you mean "jsonPointers"?',
    );
  });

  it("refuses nesting deeper than the documented limit instead of overflowing the stack", () => {
    const deep = `a: ${"{a: ".repeat(5000)}1${"}".repeat(5000)}\n`;
    expect(messageOf(deep)).toMatch(
      /^\.github\/undrift\.yml(:1)?: nested more than 64 maps or lists deep \(the limit\)$/,
    );
    const block = Array.from({ length: 70 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n");
    expect(messageOf(`${block} 1\n`)).toMatch(/^\.github\/undrift\.yml:\d+: nested more than 64/);
  });

  it("refuses a config over the size limit", () => {
    expect(messageOf(`# ${"x".repeat(1024 * 1024)}\n${target}}]\n`)).toMatch(
      /^\.github\/undrift\.yml: \d+ bytes; the limit is 1048576 bytes$/,
    );
  });

  it("caps fieldManager at Kubernetes' 128 characters", () => {
    const message = messageOf(`${target}, fieldManager: ${"x".repeat(5_000_000 / 10)}}]\n`);
    expect(message).toBe(".github/undrift.yml:1: targets[0].fieldManager: expected at most 128 characters");
  });

  it("caps schedule at 168h and timeout at 24h", () => {
    expect(messageOf(`schedule: 999999999999999999999h\n${target}}]\n`)).toBe(
      '.github/undrift.yml:1: schedule: expected at most 168h, got "999999999999999999999h"',
    );
    expect(messageOf(`${target}, timeout: 25h}]\n`)).toBe(
      '.github/undrift.yml:1: targets[0].timeout: expected at most 24h, got "25h"',
    );
    expect(loadConfig(`schedule: 168h\n${target}, timeout: 24h}]\n`).scheduleMs).toBe(168 * 3_600_000);
  });
});

describe("readRepoConfig: the working tree", () => {
  let base: string;
  let repo: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "undrift-hostile-config-"));
    repo = join(base, "repo");
    await mkdir(join(repo, ".github"), { recursive: true });
    await mkdir(join(base, "outside"));
    await writeFile(join(base, "outside/o.yaml"), "kind: ConfigMap\n");
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });
  const config = (path: string, extra = "") =>
    lines("targets:", "  - name: a", "    cluster: c", `    path: ${path}`, extra);

  it("refuses a target path that is a symbolic link to a folder outside the repository", async () => {
    await symlink(join(base, "outside"), join(repo, "outside-link"));
    await writeFile(join(repo, ".github/undrift.yml"), config("outside-link"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yml:4: targets[0].path: outside-link is a symbolic link to a folder outside the repository",
    );
  });

  it("refuses a target path that goes through a relative link leading out", async () => {
    await mkdir(join(repo, "infra"));
    await symlink("../../outside", join(repo, "infra/up"));
    await writeFile(join(repo, ".github/undrift.yml"), config("infra/up/deeper"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yml:4: targets[0].path: infra/up/deeper: infra/up is a symbolic link to a folder outside the repository",
    );
  });

  it("refuses a dangling link that a write would follow out of the repository", async () => {
    await symlink(join(base, "not-yet"), join(repo, "later"));
    await writeFile(join(repo, ".github/undrift.yml"), config("later"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yml:4: targets[0].path: later is a symbolic link to a place outside the repository",
    );
  });

  it("accepts a link that stays inside the repository", async () => {
    await mkdir(join(repo, "real"));
    await symlink("real", join(repo, "alias"));
    await writeFile(join(repo, ".github/undrift.yml"), config("alias"));
    expect((await readRepoConfig(repo)).targets[0]?.path).toBe("alias");
  });

  it("refuses a helm values file linked outside the repository", async () => {
    await mkdir(join(repo, "chart"));
    await symlink(join(base, "outside/o.yaml"), join(repo, "chart/values-prod.yaml"));
    await writeFile(join(repo, ".github/undrift.yml"), config("chart", "    helm: {valuesFiles: [values-prod.yaml]}"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yml:5: targets[0].helm.valuesFiles[0]: chart/values-prod.yaml is a symbolic link to a file outside the repository",
    );
  });

  it("says a target path that is a file is not a folder", async () => {
    await writeFile(join(repo, "app.yaml"), "kind: ConfigMap\n");
    await writeFile(join(repo, ".github/undrift.yml"), config("app.yaml"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yml:4: targets[0].path: app.yaml is a file; a target's path is a folder",
    );
  });

  it("says a target path that is a symbolic link to itself is one, not that the folder is missing", async () => {
    await mkdir(join(repo, "apps"));
    await symlink("x", join(repo, "apps/x"));
    await writeFile(join(repo, ".github/undrift.yml"), config("apps/x/overlay"));
    await expect(readRepoConfig(repo)).rejects.toThrow(
      /^\.github\/undrift\.yml:4: targets\[0\]\.path: apps\/x: a symbolic link that points back to itself \(ELOOP\)$/,
    );
  });

  it("says the config is a folder, not EISDIR", async () => {
    await mkdir(join(repo, ".github/undrift.yml"));
    await expect(readRepoConfig(repo)).rejects.toThrow(/^\.github\/undrift\.yml: is a folder, not a file$/);
  });

  it("refuses a config that is a link out of the repository without quoting it", async () => {
    await writeFile(join(base, "secret.txt"), "canary-7f3e: not yaml: [\n");
    await symlink(join(base, "secret.txt"), join(repo, ".github/undrift.yml"));
    const error = (await readRepoConfig(repo).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(".github/undrift.yml is a symbolic link to a file outside the repository");
  });
});

describe("loadConfig: jq expressions", { timeout: 60_000 }, () => {
  const withJq = (expression: string) =>
    lines(
      "targets:",
      "  - name: a",
      "    cluster: c",
      "    path: p",
      "    ignoreDifferences:",
      "      - kind: Service",
      "        jsonPointers: [/spec]",
      "      - kind: ConfigMap",
      `        jqPathExpressions: [${JSON.stringify(expression)}]`,
    );

  it("compiles every jq expression when the config loads, with jq's whole message", () => {
    expect(messageOf(withJq(".metadata.annotations | "))).toBe(
      ".github/undrift.yml:9: targets[0].ignoreDifferences[1].jqPathExpressions: .metadata.annotations | : jq: syntax error, unexpected ')' at <top-level>, line 1; 1 compile error",
    );
  });

  it("refuses an expression that never ends, within its time bound", () => {
    // The load returns (an endless expression would hold it forever) with the bound's own message: the thread was
    // stopped at its time bound, not left running.
    expect(messageOf(withJq("(.data|until(false;.))"))).toBe(
      ".github/undrift.yml:9: targets[0].ignoreDifferences[1].jqPathExpressions: (.data|until(false;.)): jq: did not finish within 1s on an empty input; an endless loop?",
    );
    // The thread is replaced: the next evaluation works.
    expect(loadConfig(withJq(".data.a")).targets[0]?.ignoreDifferences[1]?.jqPathExpressions).toEqual([".data.a"]);
  });
});
