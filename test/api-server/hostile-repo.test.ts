// Repositories that try to reach outside themselves, run through the real CLI:
// nothing outside the repository is read into any output or written.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kubeconfigPath } from "../helpers/cluster.ts";
import { scenario, undrift } from "../helpers/scenario.ts";

const run = promisify(execFile);
const canary = "canary-e41c-never-in-any-output";
const outsideManifest = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: outside}\ndata: {secret: ${canary}}\n`;

describe("a repository whose target folder is a link outside it", { timeout: 120_000 }, () => {
  let outside: string;
  let repo: ReturnType<typeof scenario>;
  let before: { mtimeMs: number; text: string };

  beforeEach(async () => {
    outside = mkdtempSync(join(tmpdir(), "undrift-outside-"));
    writeFileSync(join(outside, "o.yaml"), outsideManifest);
    before = { mtimeMs: statSync(join(outside, "o.yaml")).mtimeMs, text: outsideManifest };
    repo = scenario({ files: {}, target: { path: "outside-link" } });
    symlinkSync(outside, join(repo.repoDir, "outside-link"));
    const git = (...args: string[]) =>
      run("git", ["-C", repo.repoDir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args]);
    await git("init", "-q");
    await git("add", ".");
    await git("commit", "-q", "-m", "hostile");
  });
  afterEach(async () => {
    await repo.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  const refusal =
    ".github/undrift.yml:4: targets[0].path: outside-link is a symbolic link to a folder outside the repository";
  const base = () => ["--repo", repo.repoDir, "--target", repo.target, "--kubeconfig", kubeconfigPath()];

  function expectUntouched(result: { stdout: string; stderr: string }) {
    expect(result.stdout + result.stderr).not.toContain(canary);
    expect(readFileSync(join(outside, "o.yaml"), "utf8")).toBe(before.text);
    expect(statSync(join(outside, "o.yaml")).mtimeMs).toBe(before.mtimeMs);
  }

  it.each([
    ["scan", []],
    ["codify", []],
    ["codify", ["--allow-dirty"]],
    ["revert", ["--dry-run"]],
    ["revert", ["--prune"]],
  ])("%s %j refuses before reading or writing, exit 2", async (command, extra) => {
    const result = await undrift([command, ...base(), ...extra]);
    expect(result.stderr.trim()).toBe(refusal);
    expect(result.code).toBe(2);
    expectUntouched(result);
  });

  it("preview refuses the link in the commit it renders", async () => {
    const result = await undrift(["preview", ...base(), "--base", "HEAD", "--head", "HEAD"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/outside-link.*(outside the repository|outside the tree)/);
    expectUntouched(result);
  });
});

describe("codify on a dirty working tree", { timeout: 120_000 }, () => {
  it("refuses with one line and keeps the uncommitted work; --dry-run still runs", async () => {
    const s = scenario({
      files: { "manifests/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: '1'}\n" },
    });
    try {
      const git = (...args: string[]) =>
        run("git", ["-C", s.repoDir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args]);
      await git("init", "-q");
      await git("add", ".");
      await git("commit", "-q", "-m", "init");
      mkdirSync(join(s.repoDir, "manifests"), { recursive: true });
      writeFileSync(join(s.repoDir, "manifests/mine.yaml"), "# work in progress\n");
      const args = ["codify", "--repo", s.repoDir, "--target", s.target, "--kubeconfig", kubeconfigPath()];
      const result = await undrift(args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        `--repo ${s.repoDir}: an uncommitted change under manifests (manifests/mine.yaml) that codify would overwrite; commit or stash them, or pass --allow-dirty`,
      );
      expect(readFileSync(join(s.repoDir, "manifests/mine.yaml"), "utf8")).toBe("# work in progress\n");
      const dry = await undrift([...args, "--dry-run"]);
      expect(dry.stderr).not.toContain("uncommitted");
    } finally {
      await s.cleanup();
    }
  });

  it("names --repo that is a file or missing", async () => {
    const file = join(tmpdir(), `undrift-not-a-folder-${process.pid}`);
    writeFileSync(file, "x");
    try {
      const asFile = await undrift(["scan", "--repo", file, "--target", "a"]);
      expect([asFile.code, asFile.stderr.trim()]).toEqual([
        2,
        `--repo ${file}: is a file; expected the folder of a working tree`,
      ]);
      const missing = await undrift(["scan", "--repo", `${file}/nope`, "--target", "a"]);
      expect([missing.code, missing.stderr.trim()]).toEqual([2, `--repo ${file}/nope: no such folder`]);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
