// The on-disk cache of repository snapshots: `<cacheDir>/<owner>/<repo>/<sha>/`
// holds the tree, `<sha>.json` beside it says it is complete and how big it is;
// its mtime is the last use. Over the size bound, the least recently used go
// first; ones used within `graceMs` stay, since a scan may be reading them.
import { readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface CachedSnapshot {
  dir: string;
  bytes: number;
  files: number;
}

interface Meta {
  bytes: number;
  files: number;
}

/** Where a snapshot lives; owner and repo lowercased, as GitHub's names are case-insensitive. */
export function snapshotPaths(params: { cacheDir: string; owner: string; repo: string; sha: string }) {
  const folder = join(params.cacheDir, params.owner.toLowerCase(), params.repo.toLowerCase());
  return { folder, dir: join(folder, params.sha), meta: join(folder, `${params.sha}.json`) };
}

/** The cached snapshot, marked as just used; undefined when it is not (completely) there. */
export async function useCachedSnapshot(paths: { dir: string; meta: string }): Promise<CachedSnapshot | undefined> {
  const parsed = await readMeta(paths.meta);
  // A folder removed by hand (or by another process's pruning) behind its meta is no snapshot.
  if (!parsed || !(await stat(paths.dir).catch(() => undefined))) return undefined;
  const now = new Date();
  await utimes(paths.meta, now, now);
  return { dir: paths.dir, bytes: parsed.bytes, files: parsed.files };
}

/** Marks a snapshot complete; written after its folder is in place. */
export async function recordSnapshot(params: { meta: string; bytes: number; files: number }): Promise<void> {
  await writeFile(params.meta, JSON.stringify({ bytes: params.bytes, files: params.files } satisfies Meta));
}

/** Removes least recently used snapshots until the rest fit `maxBytes`, and scratch folders a crash left behind. */
export async function pruneSnapshotCache(params: {
  cacheDir: string;
  maxBytes: number;
  graceMs?: number;
  now?: number;
}): Promise<{ removed: string[] }> {
  const now = params.now ?? Date.now();
  const grace = params.graceMs ?? 5 * 60_000;
  const entries: Array<{ dir: string; meta: string; bytes: number; used: number }> = [];
  const removed: string[] = [];
  for (const owner of await dirNames(params.cacheDir)) {
    if (owner.startsWith(".tmp-")) {
      const path = join(params.cacheDir, owner);
      // An hour is far longer than any download; a younger one may be another process at work.
      // One that vanished since readdir was another download finishing (renamed into place).
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < now - 3_600_000) {
        await rm(path, { recursive: true, force: true });
        removed.push(path);
      }
      continue;
    }
    for (const repo of await dirNames(join(params.cacheDir, owner))) {
      const folder = join(params.cacheDir, owner, repo);
      for (const name of await readdir(folder)) {
        if (!name.endsWith(".json")) continue;
        const meta = join(folder, name);
        const info = await stat(meta).catch(() => undefined);
        const parsed = info && (await readMeta(meta));
        if (info && parsed)
          entries.push({ dir: join(folder, name.slice(0, -5)), meta, bytes: parsed.bytes, used: info.mtimeMs });
      }
    }
  }
  entries.sort((a, b) => b.used - a.used);
  let total = 0;
  for (const entry of entries) {
    total += entry.bytes;
    if (total <= params.maxBytes || entry.used > now - grace) continue;
    // The meta goes first: a half-removed snapshot is then never taken for a complete one.
    await rm(entry.meta, { force: true });
    await rm(entry.dir, { recursive: true, force: true });
    removed.push(entry.dir);
    total -= entry.bytes;
  }
  return { removed };
}

/** The meta file's content; undefined when it is missing or torn (a crash while writing it). */
async function readMeta(path: string): Promise<Meta | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as Meta;
  } catch {
    return undefined;
  }
}

async function dirNames(path: string): Promise<string[]> {
  const found = await readdir(path, { withFileTypes: true }).catch(() => []);
  return found.filter((d) => d.isDirectory()).map((d) => d.name);
}
