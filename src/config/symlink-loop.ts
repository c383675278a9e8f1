// A path through a symbolic link that leads back to itself (`ln -s x x`, or a
// chain that closes) cannot be read: every stat of it fails with ELOOP, which
// would otherwise read as "does not exist". This names the link at fault.
import { lstat, realpath } from "node:fs/promises";
import { join } from "node:path";

/**
 * `<step>: a symbolic link that points back to itself (ELOOP)` for the first step of `path` (relative to
 * `root`, `/`-separated) that is such a link, or undefined when no step is.
 */
export async function symlinkLoop({ root, path }: { root: string; path: string }): Promise<string | undefined> {
  const segments = path.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
  for (let i = 1; i <= segments.length; i++) {
    const step = segments.slice(0, i).join("/");
    const info = await lstat(join(root, step)).catch(() => undefined);
    if (!info) return undefined;
    if (!info.isSymbolicLink()) continue;
    const error = await realpath(join(root, step)).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    if (error?.code === "ELOOP") return `${step}: a symbolic link that points back to itself (ELOOP)`;
  }
  return undefined;
}
