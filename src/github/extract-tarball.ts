// Writes a repository tarball into a folder, refusing anything that could
// reach outside it or is not part of a Git tree: `..` and absolute paths,
// links that lead out (checked by path when written and by the file system
// once all are written), writes through a link, device files and FIFOs, and
// archives over the size or entry limits. GitHub's top-level folder
// (`<owner>-<repo>-<sha>/`) is stripped, so the folder is the repository root.
import { copyFile, mkdir, open, realpath, symlink } from "node:fs/promises";
import { join, posix } from "node:path";
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { outsideRepo } from "../config/outside-repo.ts";
import { readTar, type TarEntry } from "./read-tar.ts";
import { SnapshotError } from "./snapshot-error.ts";

export interface ExtractLimits {
  /** All files' bytes together (a zip bomb stops here). */
  maxBytes: number;
  maxFileBytes: number;
  maxEntries: number;
}

export const defaultExtractLimits: ExtractLimits = {
  maxBytes: 512 * 1024 * 1024,
  maxFileBytes: 64 * 1024 * 1024,
  maxEntries: 200_000,
};

export interface ExtractTarballParams {
  /** The archive's bytes, gzip-compressed unless `gzip` is false. */
  source: AsyncIterable<Uint8Array>;
  /** An empty folder to write into. */
  dest: string;
  gzip?: boolean;
  limits?: Partial<ExtractLimits>;
}

export interface ExtractedTree {
  files: number;
  bytes: number;
  /** The folder GitHub wrapped the tree in, stripped. */
  topFolder: string;
}

export async function extractTarball(params: ExtractTarballParams): Promise<ExtractedTree> {
  try {
    return await extract(params);
  } catch (error) {
    // zlib's own errors (Z_DATA_ERROR: "incorrect header check") mean the bytes are no gzip archive.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code.startsWith("Z_")) {
      throw new SnapshotError("corrupt", `not a gzip archive: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }
}

async function extract(params: ExtractTarballParams): Promise<ExtractedTree> {
  const limits = { ...defaultExtractLimits, ...params.limits };
  const root = await realpath(params.dest);
  const stream = params.gzip === false ? params.source : gunzip(params.source);
  const links = new Set<string>();
  const files = new Set<string>();
  let topFolder: string | undefined;
  let bytes = 0;
  let entries = 0;
  for await (const entry of readTar({ source: stream, maxFileBytes: limits.maxFileBytes })) {
    if (++entries > limits.maxEntries) {
      throw new SnapshotError("too-large", `more than ${limits.maxEntries} entries in the archive`);
    }
    const segments = safeSegments(entry.path);
    topFolder ??= segments[0];
    if (segments[0] !== topFolder) {
      throw new SnapshotError("unsafe", `${entry.path}: outside the archive's top folder ${topFolder}/`);
    }
    const rel = segments.slice(1).join("/");
    if (rel === "") continue;
    for (let i = 1; i < segments.length - 1; i++) {
      if (links.has(segments.slice(1, i + 1).join("/"))) {
        throw new SnapshotError(
          "unsafe",
          `${rel}: written through the symbolic link ${segments.slice(1, i + 1).join("/")}`,
        );
      }
    }
    const abs = join(root, ...segments.slice(1));
    switch (entry.type) {
      case "directory":
        if (links.has(rel)) throw new SnapshotError("unsafe", `${rel}: a folder where a symbolic link was written`);
        await mkdir(abs, { recursive: true, mode: 0o755 });
        break;
      case "file":
        bytes += entry.size;
        if (bytes > limits.maxBytes) {
          throw new SnapshotError("too-large", `the archive holds more than ${limits.maxBytes} bytes of files`);
        }
        await writeNew(abs, rel, entry);
        files.add(rel);
        break;
      case "symlink":
        checkLinkTarget(rel, entry.linkTarget);
        await mkdir(join(abs, ".."), { recursive: true, mode: 0o755 });
        await symlink(entry.linkTarget, abs).catch((error: unknown) => refuseExisting(error, rel));
        links.add(rel);
        break;
      case "hardlink": {
        // git never writes hard links; one to a file of this tree is harmless, anything else is refused.
        const target = safeSegments(entry.linkTarget).slice(1).join("/");
        if (!files.has(target))
          throw new SnapshotError("unsafe", `${rel}: a hard link to ${entry.linkTarget}, not a file of this tree`);
        await mkdir(join(abs, ".."), { recursive: true, mode: 0o755 });
        await copyFile(join(root, target), abs).catch((error: unknown) => refuseExisting(error, rel));
        files.add(rel);
        break;
      }
      case "char-device":
      case "block-device":
      case "fifo":
        throw new SnapshotError("unsafe", `${rel}: a ${entry.type.replace("-", " ")}, which a Git tree cannot hold`);
      default:
        throw new SnapshotError("unsafe", `${rel}: an entry of unknown type ${JSON.stringify(entry.flag)}`);
    }
  }
  if (topFolder === undefined) throw new SnapshotError("corrupt", "the archive is empty");
  await checkLinksResolveInside(root, links);
  return { files: files.size, bytes, topFolder };
}

/** The decompressed bytes; a failure on either side (a broken download, bad gzip) ends the iteration with that error. */
function gunzip(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const output = createGunzip();
  // pipeline, not pipe: pipe leaves the gunzip stream waiting forever when the source fails.
  pipeline(Readable.from(source), output, () => {});
  return output;
}

/** The path's segments; absolute paths, `..` and NUL refused, `.` and empty segments dropped. */
function safeSegments(path: string): string[] {
  if (path.startsWith("/")) throw new SnapshotError("unsafe", `${path}: an absolute path`);
  if (path.includes("\0")) throw new SnapshotError("unsafe", `${JSON.stringify(path)}: a NUL in a path`);
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new SnapshotError("unsafe", `${path}: a path with ".." that could leave the tree`);
  if (segments.length === 0) throw new SnapshotError("unsafe", `${JSON.stringify(path)}: an empty path`);
  return segments;
}

/** A link must point inside the tree, judged from where it sits: absolute targets and climbs above the root are refused. */
function checkLinkTarget(rel: string, target: string): void {
  if (target === "" || target.startsWith("/")) {
    throw new SnapshotError("unsafe", `${rel}: a symbolic link to ${JSON.stringify(target)}, outside the tree`);
  }
  const resolved = posix.normalize(posix.join(posix.dirname(rel), target));
  if (resolved === ".." || resolved.startsWith("../")) {
    throw new SnapshotError("unsafe", `${rel}: a symbolic link to ${target}, which leads outside the tree`);
  }
}

/**
 * Links checked one by one can still escape together (`r -> .` then `a -> r/..`),
 * so once all are written the file system resolves each; a dangling one leads nowhere.
 */
async function checkLinksResolveInside(root: string, links: Set<string>): Promise<void> {
  for (const rel of links) {
    // The same check every stage makes of the paths a repository names.
    const outside = await outsideRepo({ root, path: rel }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ELOOP") return undefined;
      throw error;
    });
    if (outside) throw new SnapshotError("unsafe", outside);
  }
}

/** Creates the file; never follows or replaces what is there (O_EXCL), so a link planted earlier cannot redirect it. */
async function writeNew(abs: string, rel: string, entry: TarEntry): Promise<void> {
  await mkdir(join(abs, ".."), { recursive: true, mode: 0o755 });
  const handle = await open(abs, "wx", entry.mode & 0o111 ? 0o755 : 0o644).catch((error: unknown) =>
    refuseExisting(error, rel),
  );
  try {
    await handle.writeFile(entry.data);
  } finally {
    await handle.close();
  }
}

function refuseExisting(error: unknown, rel: string): never {
  if ((error as NodeJS.ErrnoException).code === "EEXIST") {
    throw new SnapshotError("unsafe", `${rel}: appears twice in the archive`);
  }
  throw error;
}
