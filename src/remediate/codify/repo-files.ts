// The repository's files as codify reads them: cached, and checked before an
// edit, so nothing outside the target's own folder is ever written (a shared
// base, or a file a symbolic link leads to).
import { lstat, readFile, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { outsideRepo } from "../../config/outside-repo.ts";
import { repoPath } from "../../desired/repo-path.ts";

export class RepoFiles {
  readonly repoDir: string;
  /** The target's folder, repository-relative ("." for the root). */
  readonly targetPath: string;
  private readonly cache = new Map<string, Promise<string | undefined>>();
  private root?: Promise<string>;

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
    this.root ??= realpath(this.repoDir);
    const root = await this.root;
    const abs = join(root, file);
    const link = await lstat(abs).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    const linkProblem = `${file} is a symbolic link to a file outside the target's folder`;
    // Out of the repository: the one check every path a repository names gets (a folder on the way counts too).
    const outside = await outsideRepo({ root, path: file });
    if (outside) return link ? linkProblem : outside;
    // Inside it, a link may still lead out of the target's folder, into a base other targets share.
    const real = await realLocation(abs);
    const rel = real && repoPath({ repoDir: root, abs: real });
    if (rel && this.inTarget(rel)) return undefined;
    return link ? linkProblem : `${file}: a folder on the way is a symbolic link out of the target's folder`;
  }
}

/** The real path of `abs`, or of its nearest existing folder joined with the rest (a file codify creates); undefined for a dangling link. */
async function realLocation(abs: string): Promise<string | undefined> {
  const real = await realpath(abs).catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? null : undefined,
  );
  if (real !== null) return real;
  const isLink = await lstat(abs).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  if (isLink) return undefined;
  const parent = dirname(abs);
  if (parent === abs) return undefined;
  const realParent = await realLocation(parent);
  return realParent && join(realParent, basename(abs));
}
