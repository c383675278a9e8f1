// A scratch copy of the working tree for a tool that must see the whole
// repository (kustomize follows ../base, helm follows links) but may not touch
// the original or anything outside it.
import { cp, lstat, realpath, stat } from "node:fs/promises";
import { basename, relative, sep } from "node:path";
import { outsideRepo } from "../config/outside-repo.ts";

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
      // A link to /etc/passwd must not become part of what a tool reads; a dangling one is dropped too.
      const exists = await stat(src).then(
        () => true,
        () => false,
      );
      return exists && (await outsideRepo({ root, path: relative(root, src).split(sep).join("/") })) === undefined;
    },
  });
}
