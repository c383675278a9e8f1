// The repository's tree at a commit, as a folder the renderers read: one
// tarball request per SHA (a commit never changes, so a cached copy is always
// right), extracted with extract-tarball's refusals into a scratch folder and
// renamed into the cache only when complete, then the cache pruned to its bound.
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { type ExtractLimits, extractTarball } from "./extract-tarball.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { GitHubError, githubStep } from "./github-errors.ts";
import { pruneSnapshotCache, recordSnapshot, snapshotPaths, useCachedSnapshot } from "./snapshot-cache.ts";
import { SnapshotError } from "./snapshot-error.ts";

export interface DownloadSnapshotParams extends RepoRef {
  octokit: GitHubClient;
  /** A full commit SHA: a branch name would make the cache wrong the moment the branch moves. */
  sha: string;
  cacheDir: string;
  /** The compressed archive (default 100 MiB). */
  maxArchiveBytes?: number;
  /** Files, entries and single-file size once extracted (defaults in extract-tarball). */
  limits?: Partial<ExtractLimits>;
  /** The whole cache (default 2 GiB); least recently used snapshots go first. */
  maxCacheBytes?: number;
}

export interface Snapshot {
  /** The repository root at `sha`. */
  dir: string;
  sha: string;
  /** Served from the cache, without a request. */
  cached: boolean;
  bytes: number;
  files: number;
}

const shaPattern = /^([0-9a-f]{40}|[0-9a-f]{64})$/;
// GitHub's owner and repository names; checked because they become folder names.
const namePattern = /^[A-Za-z0-9_.-]+$/;
const inFlight = new Map<string, Promise<Snapshot>>();

export async function downloadSnapshot(params: DownloadSnapshotParams): Promise<Snapshot> {
  const { owner, repo, sha } = params;
  if (!shaPattern.test(sha)) throw new RangeError(`${owner}/${repo}: ${JSON.stringify(sha)} is not a full commit SHA`);
  for (const name of [owner, repo]) {
    if (!namePattern.test(name) || name === "." || name === "..") {
      throw new RangeError(`${JSON.stringify(name)} is not a GitHub owner or repository name`);
    }
  }
  const paths = snapshotPaths(params);
  const cached = await useCachedSnapshot(paths);
  if (cached) return { ...cached, sha, cached: true };
  // Two jobs of one process asking for the same commit share one download.
  const key = paths.dir;
  const running = inFlight.get(key) ?? fetchSnapshot(params, paths).finally(() => inFlight.delete(key));
  inFlight.set(key, running);
  return running;
}

async function fetchSnapshot(
  params: DownloadSnapshotParams,
  paths: ReturnType<typeof snapshotPaths>,
): Promise<Snapshot> {
  const { octokit, owner, repo, sha, cacheDir } = params;
  const label = `${owner}/${repo}@${sha.slice(0, 7)}`;
  const maxArchiveBytes = params.maxArchiveBytes ?? 100 * 1024 * 1024;
  const scratch = join(cacheDir, `.tmp-${randomUUID()}`);
  await mkdir(scratch, { recursive: true });
  try {
    const response = await githubStep({
      repo: params,
      step: `download tarball of ${sha.slice(0, 7)}`,
      run: () =>
        octokit.request("GET /repos/{owner}/{repo}/tarball/{ref}", {
          owner,
          repo,
          ref: sha,
          // The body is streamed to the extractor, never held whole in memory.
          request: { parseSuccessResponseBody: false },
        }),
    });
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxArchiveBytes) {
      throw new SnapshotError(
        "too-large",
        `the archive is ${declared} bytes, more than the ${maxArchiveBytes} allowed`,
      );
    }
    const body = response.data as unknown as ReadableStream<Uint8Array> | null;
    if (!body) throw new SnapshotError("corrupt", "GitHub sent no archive");
    const tree = await extractTarball({
      source: bounded(body, maxArchiveBytes),
      dest: scratch,
      ...(params.limits ? { limits: params.limits } : {}),
    }).catch((error: unknown) => {
      if (error instanceof SnapshotError) throw error;
      // The body broke off mid-stream (a reset, a timeout): worth another try, unlike a refused archive.
      throw new GitHubError({ repo: params, step: `download tarball of ${sha.slice(0, 7)}`, error });
    });
    await mkdir(paths.folder, { recursive: true });
    try {
      await rename(scratch, paths.dir);
    } catch (error) {
      // Another process finished the same commit first; its copy is as good as ours.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    }
    await recordSnapshot({ meta: paths.meta, bytes: tree.bytes, files: tree.files });
    await pruneSnapshotCache({ cacheDir, maxBytes: params.maxCacheBytes ?? 2 * 1024 * 1024 * 1024 });
    return { dir: paths.dir, sha, cached: false, bytes: tree.bytes, files: tree.files };
  } catch (error) {
    if (error instanceof SnapshotError) {
      throw new SnapshotError(error.problem, `${label}: repository archive refused: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The body, failing once more than `max` compressed bytes arrive (a missing or false Content-Length proves nothing). */
async function* bounded(body: ReadableStream<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > max) throw new SnapshotError("too-large", `the archive is more than the ${max} bytes allowed`);
    yield chunk;
  }
}
