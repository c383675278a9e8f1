// Targets name folders of the repository; a path outside it could make undrift
// render (and apply) files the repository does not own.
import { posix } from "node:path";

/** `./infra/` as `infra` (`.` for the root), or why the path is not a folder inside the repository. */
export function normalizeRepoPath(path: string): { ok: true; path: string } | { ok: false; problem: string } {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\")) {
    return { ok: false, problem: `expected a path relative to the repository root, got "${path}"` };
  }
  const normalized = posix.normalize(path).replace(/\/+$/, "") || ".";
  if (normalized === ".." || normalized.startsWith("../")) {
    return { ok: false, problem: `"${path}" leaves the repository` };
  }
  return { ok: true, path: normalized };
}
