// A scratch copy of the working tree for a tool that must see the whole
// repository (kustomize follows ../base) but may not touch the original.
import { cp, lstat, realpath } from "node:fs/promises";
import { basename } from "node:path";
import { repoPath } from "./repo-path.ts";

// Version control and dependency folders: large, and never part of a rendered target.
const skippedFolders = new Set([".git", "node_modules"]);

/** Copies `repoDir` to `dest`, without .git and node_modules, and without links that lead outside the repository. */
export async function copyRepo({ repoDir, dest }: { repoDir: string; dest: string }): Promise<void> {
  const root = await realpath(repoDir);
  await cp(root, dest, {
    recursive: true,
    verbatimSymlinks: true,
    filter: async (src) => {
      if (src !== root && skippedFolders.has(basename(src))) return false;
      if (!(await lstat(src)).isSymbolicLink()) return true;
      // A link to /etc/passwd must not become part of what kustomize reads; a dangling one is dropped too.
      const target = await realpath(src).catch(() => undefined);
      return target !== undefined && repoPath({ repoDir: root, abs: target }) !== undefined;
    },
  });
}
