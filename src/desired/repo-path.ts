// Paths inside the repository: sources are repo-relative with `/`, and nothing
// a repository names may reach outside its working tree.
import { isAbsolute, relative, resolve, sep } from "node:path";

/** `abs` relative to `repoDir` with POSIX separators, or undefined when it lies outside the repository. */
export function repoPath({ repoDir, abs }: { repoDir: string; abs: string }): string | undefined {
  const rel = relative(resolve(repoDir), resolve(abs));
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}
