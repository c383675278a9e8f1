// codify rewrites and deletes files in the target's folder: uncommitted work
// there would be lost without a word. Like `cargo publish`, which checks the
// files it packages, the check covers what codify may write (the target's
// folder), not the whole repository; like both cargo and `npm version`, a
// folder that is not a git working tree has nothing to compare with and passes.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { UsageError } from "./errors.ts";

const run = promisify(execFile);

/** Uncommitted work where codify writes: exit code 2 unless --allow-dirty. */
export class DirtyTreeError extends UsageError {
  override name = "DirtyTreeError";
}

/** Throws DirtyTreeError when `targetPath` of the working tree at `repoDir` has changed or untracked files. */
export async function checkCleanTree({ repoDir, targetPath }: { repoDir: string; targetPath: string }): Promise<void> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      "git",
      ["-C", repoDir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", targetPath],
      { maxBuffer: 64 << 20 },
    ));
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    if (/not a git repository/i.test(stderr)) return;
    throw new UsageError(`--repo ${repoDir}: git status failed: ${stderr.trim().split("\n")[0]}`, { cause: error });
  }
  const entries = stdout.split("\0").filter((e) => e !== "");
  if (entries.length === 0) return;
  const first = entries[0]!.slice(3);
  const count = entries.length === 1 ? "an uncommitted change" : `${entries.length} uncommitted changes`;
  throw new DirtyTreeError(
    `--repo ${repoDir}: ${count} under ${targetPath} (${first}) that codify would overwrite; commit or stash them, or pass --allow-dirty`,
  );
}
