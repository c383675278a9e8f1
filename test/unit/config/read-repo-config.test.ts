import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.ts";
import { readRepoConfig } from "../../../src/config/load-config.ts";

describe("readRepoConfig", () => {
  let repo: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), "undrift-config-"));
    await mkdir(join(repo, ".github"));
  });
  afterEach(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it("reads .github/undrift.yml from a working tree", async () => {
    await writeFile(join(repo, ".github/undrift.yml"), "targets: [{name: a, cluster: c, path: a}]\n");
    expect((await readRepoConfig(repo)).targets[0]?.name).toBe("a");
  });

  it("falls back to .github/undrift.yaml and names it in errors", async () => {
    await writeFile(join(repo, ".github/undrift.yaml"), "targets: [{name: a, cluster: c, path: a, mode: x}]\n");
    await expect(readRepoConfig(repo)).rejects.toThrow(
      ".github/undrift.yaml:1: targets[0].mode: expected one of warn, codify, revert, heal",
    );
  });

  it("says the file is not found in the repository", async () => {
    const error = await readRepoConfig(repo).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`.github/undrift.yml: not found in ${repo}`);
  });
});
