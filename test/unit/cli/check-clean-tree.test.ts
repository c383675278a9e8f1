import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkCleanTree, DirtyTreeError } from "../../../src/cli/check-clean-tree.ts";

const run = promisify(execFile);
const git = (dir: string, ...args: string[]) =>
  run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args]);

describe("codify's clean-tree check", () => {
  let repo: string;
  beforeEach(async () => {
    repo = await mkdtemp(join(tmpdir(), "undrift-dirty-"));
    await mkdir(join(repo, "infra"));
    await mkdir(join(repo, "docs"));
    await writeFile(join(repo, "infra/a.yaml"), "kind: ConfigMap\n");
    await writeFile(join(repo, "docs/readme.md"), "hi\n");
    await git(repo, "init", "-q");
    await git(repo, "add", ".");
    await git(repo, "commit", "-q", "-m", "init");
  });
  afterEach(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it("passes a clean target folder, whatever changed elsewhere", async () => {
    await writeFile(join(repo, "docs/readme.md"), "changed\n");
    await expect(checkCleanTree({ repoDir: repo, targetPath: "infra" })).resolves.toBeUndefined();
  });

  it("refuses an uncommitted line in the target folder", async () => {
    await writeFile(join(repo, "infra/a.yaml"), "kind: ConfigMap\n# mine\n");
    await expect(checkCleanTree({ repoDir: repo, targetPath: "infra" })).rejects.toThrow(
      `--repo ${repo}: an uncommitted change under infra (infra/a.yaml) that codify would overwrite; commit or stash them, or pass --allow-dirty`,
    );
  });

  it("refuses an untracked manifest in the target folder", async () => {
    await writeFile(join(repo, "infra/new.yaml"), "kind: Secret\n");
    await writeFile(join(repo, "infra/a.yaml"), "kind: ConfigMap\n# mine\n");
    const error = await checkCleanTree({ repoDir: repo, targetPath: "infra" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DirtyTreeError);
    expect((error as Error).message).toMatch(/: 2 uncommitted changes under infra \(infra\/\S+\.yaml\)/);
  });

  it("passes a folder that is not a git working tree, as cargo and npm do", async () => {
    const plain = await mkdtemp(join(tmpdir(), "undrift-plain-"));
    try {
      await expect(checkCleanTree({ repoDir: plain, targetPath: "." })).resolves.toBeUndefined();
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});
