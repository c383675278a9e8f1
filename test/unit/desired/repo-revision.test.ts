// The revision a report names: HEAD's commit for a clean checkout, else "working-tree".
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRevision } from "../../../src/desired/repo-revision.ts";
import { tempRepo } from "./temp-repo.ts";

const run = promisify(execFile);
const git = async (dir: string, ...args: string[]) =>
  (await run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args])).stdout.trim();

async function committedRepo(): Promise<string> {
  const dir = await tempRepo({ "apps/cm.yaml": "kind: ConfigMap\n" });
  await git(dir, "init", "-q");
  await git(dir, "add", ".");
  await git(dir, "commit", "-q", "-m", "init");
  return dir;
}

describe("repoRevision", () => {
  it("names HEAD's commit when the checkout is clean", async () => {
    const dir = await committedRepo();
    expect(await repoRevision(dir)).toBe(await git(dir, "rev-parse", "HEAD"));
  });

  it("names HEAD's commit on a detached HEAD", async () => {
    const dir = await committedRepo();
    const head = await git(dir, "rev-parse", "HEAD");
    await git(dir, "checkout", "-q", "--detach");
    expect(await repoRevision(dir)).toBe(head);
  });

  it.each([
    ["a changed file", "apps/cm.yaml"],
    ["an untracked file", "apps/new.yaml"],
  ])("says working-tree for %s", async (_, file) => {
    const dir = await committedRepo();
    await writeFile(join(dir, file), "kind: Secret\n");
    expect(await repoRevision(dir)).toBe("working-tree");
  });

  it("says working-tree for a repository without a commit and for a plain folder", async () => {
    const empty = await tempRepo({ "apps/cm.yaml": "kind: ConfigMap\n" });
    const plain = await tempRepo({ "apps/cm.yaml": "kind: ConfigMap\n" });
    await git(empty, "init", "-q");
    expect([await repoRevision(empty), await repoRevision(plain)]).toEqual(["working-tree", "working-tree"]);
  });
});
