// The revision a scan speaks of: the commit of the working tree's HEAD, or
// "working-tree" when it has uncommitted changes or is not a git checkout at all.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function repoRevision(repoDir: string): Promise<string> {
  try {
    // One git for both questions (a process start is most of their cost): the `# branch.oid` header
    // names HEAD's commit, and any line not starting with `#` is a change or an untracked file.
    const { stdout } = await run("git", ["-C", repoDir, "status", "--porcelain=v2", "--branch"]);
    const lines = stdout.split("\n").filter(Boolean);
    const head = lines.find((line) => line.startsWith("# branch.oid "))?.slice("# branch.oid ".length);
    if (!head || head === "(initial)" || lines.some((line) => !line.startsWith("#"))) return "working-tree";
    return head;
  } catch (error) {
    // A plain folder, or a repository with no commit yet, has no revision to name.
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    if (/not a git repository|unknown revision|ambiguous argument 'HEAD'/.test(stderr)) return "working-tree";
    throw error;
  }
}
