// A commit of a local repository as a plain folder, for `undrift preview`:
// `git archive` of the commit, written by the same extractor that unpacks
// GitHub's tarballs (links that leave the tree, devices and oversized archives
// are refused). The working tree, index and .git are left as they were: no
// checkout, no worktree entry, so previewing never disturbs someone's clone.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { extractTarball } from "../github/extract-tarball.ts";
import { UsageError } from "./errors.ts";

const run = promisify(execFile);

export interface RefTree {
  /** The commit's full SHA. */
  sha: string;
  dir: string;
  remove(): Promise<void>;
}

/** `ref` of the repository at `repoDir` (a branch, tag, SHA, `HEAD~1`) extracted to a temporary folder. */
export async function gitRefTree(params: { repoDir: string; ref: string; option: string }): Promise<RefTree> {
  const { repoDir, ref, option } = params;
  let sha: string;
  try {
    const { stdout } = await run("git", [
      "-C",
      repoDir,
      "rev-parse",
      "--verify",
      "--quiet",
      "--end-of-options",
      `${ref}^{commit}`,
    ]);
    sha = stdout.trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    const why = /not a git repository/.test(stderr)
      ? `${repoDir} is not a git repository`
      : `no commit "${ref}" in ${repoDir}`;
    throw new UsageError(`${option}: ${why}`);
  }
  const dir = await mkdtemp(join(tmpdir(), "undrift-ref-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const git = spawn("git", ["-C", repoDir, "archive", "--format=tar", `--prefix=${sha.slice(0, 12)}/`, sha], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    git.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number>((resolve, reject) => {
      git.once("error", reject);
      git.once("close", (code) => resolve(code ?? 1));
    });
    // Read from the start: when a child exits, Node resumes any output nobody listens to yet, and drops it.
    const archive = git.stdout.pipe(new PassThrough({ highWaterMark: 1 << 20 }));
    await extractTarball({ source: archive, dest: dir, gzip: false });
    const code = await exited;
    if (code !== 0) throw new Error(`git archive ${sha}: ${stderr.trim() || `exit ${code}`}`);
    return { sha, dir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
