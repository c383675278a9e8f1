// The revision a scan speaks of: the commit of the working tree's HEAD, or
// "working-tree" when it has uncommitted changes or is not a git checkout at all.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function repoRevision(repoDir: string): Promise<string> {
  try {
    const { stdout: status } = await run("git", ["-C", repoDir, "status", "--porcelain"]);
    if (status.trim() !== "") return "working-tree";
    const { stdout: head } = await run("git", ["-C", repoDir, "rev-parse", "HEAD"]);
    return head.trim();
  } catch (error) {
    // A plain folder, or a repository with no commit yet, has no revision to name.
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    if (/not a git repository|unknown revision|ambiguous argument 'HEAD'/.test(stderr)) return "working-tree";
    throw error;
  }
}
