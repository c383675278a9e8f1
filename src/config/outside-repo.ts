// The one check that a path a repository names stays inside it, judged by the
// file system: every step of the path is resolved, so a symbolic link (or a
// dangling one, which a write would follow) that leads out is caught before
// anything is read or written through it. Config loading, every renderer, the
// scratch copies and snapshot extraction all ask this function.
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Whether the absolute path `abs` is `root` or below it (both real paths). */
export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Why `path` (relative to the real folder `root`, `/`-separated) leads outside
 * the repository, or undefined when every step stays inside (a path that does
 * not exist yet is inside). The outside place itself is never named: it is the
 * server's, not the repository's.
 */
export async function outsideRepo({ root, path }: { root: string; path: string }): Promise<string | undefined> {
  const segments = path.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
  if (isAbsolute(path) || !isInside(root, resolve(root, ...segments))) return `${path} leaves the repository`;
  for (let i = 1; i <= segments.length; i++) {
    const step = segments.slice(0, i).join("/");
    const abs = join(root, step);
    const info = await lstat(abs).catch(() => undefined);
    if (!info) return undefined;
    if (!info.isSymbolicLink()) continue;
    const real = await realpath(abs).catch(() => undefined);
    // A dangling link is judged by where it points: writing a file through it would create that file.
    const leadsTo = real ?? resolve(dirname(abs), await readlink(abs));
    if (isInside(root, leadsTo)) continue;
    const what = real === undefined ? "a place" : (await stat(real)).isDirectory() ? "a folder" : "a file";
    const why = `${step} is a symbolic link to ${what} outside the repository`;
    return i === segments.length ? why : `${segments.join("/")}: ${why}`;
  }
  return undefined;
}
