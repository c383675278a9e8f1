// The repository's files as codify reads them: cached, and checked before an
// edit, so nothing outside the target's own folder is ever written (a shared
// base, or a file a symbolic link leads to).
import { lstat, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { repoPath } from "../../desired/repo-path.ts";

export class RepoFiles {
  readonly repoDir: string;
  /** The target's folder, repository-relative ("." for the root). */
  readonly targetPath: string;
  private readonly cache = new Map<string, Promise<string | undefined>>();

  constructor(params: { repoDir: string; targetPath: string }) {
    this.repoDir = params.repoDir;
    this.targetPath = params.targetPath;
  }

  /** The file's text, or undefined when it does not exist. */
  read(file: string): Promise<string | undefined> {
    let text = this.cache.get(file);
    if (!text) {
      text = readFile(join(this.repoDir, file), "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      this.cache.set(file, text);
    }
    return text;
  }

  /** Whether a repository path lies inside the target's folder. */
  inTarget(file: string): boolean {
    return this.targetPath === "." || file === this.targetPath || file.startsWith(`${this.targetPath}/`);
  }

  /** Why codify may not edit `file`, or undefined when it may. */
  async editProblem(file: string): Promise<string | undefined> {
    if (!this.inTarget(file)) return `${file} lies outside the target's folder ${this.targetPath}`;
    const abs = join(this.repoDir, file);
    const link = await lstat(abs).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (!link) return undefined;
    const target = await realpath(abs).catch(() => undefined);
    const rel = target && repoPath({ repoDir: this.repoDir, abs: target });
    return rel && this.inTarget(rel) ? undefined : `${file} is a symbolic link to a file outside the target's folder`;
  }
}
