// Writes codify's changes into the working tree, every one or none; the
// dry-run twin prints filesDiff of the same records instead.
//   1. prepare: keep what each file holds now (bytes and mode, or a link), and
//      write each new text to a temporary file beside its file (folders it needs
//      are made and remembered)
//   2. commit: rename each temporary file over its file, unlink each removed one
//   3. on any failure: remove the temporary files and the folders made, put back
//      every file already replaced or removed from what was kept, and throw one
//      error naming the file that failed
// So a folder in the way, a read-only file or a full disk leaves the tree as it was.
import { randomBytes } from "node:crypto";
import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { FileChange } from "./codify-result.ts";
import { CodifyWriteError, fsReason } from "./codify-write-error.ts";

/** What a file held before codify touched it: its bytes and mode, or the target of a symbolic link. */
type Kept = { bytes: Buffer; mode: number } | { link: string };

interface Step {
  change: FileChange;
  /** The path written or removed: the file, or for a write through a symbolic link, the file it leads to. */
  dest: string;
  kept?: Kept;
  /** The temporary file holding the new text, beside `dest`. */
  temp?: string;
  /** Renamed or unlinked: the tree holds the change, and undoing it needs `kept`. */
  done: boolean;
}

export async function writeFileChanges(params: { repoDir: string; changes: FileChange[] }): Promise<void> {
  const steps: Step[] = [];
  const madeDirs: string[] = [];
  let current: FileChange | undefined;
  try {
    for (const change of params.changes) {
      current = change;
      await prepare({ repoDir: params.repoDir, change, steps, madeDirs });
    }
    for (const step of steps) {
      current = step.change;
      if (step.temp) await rename(step.temp, step.dest);
      else await unlink(step.dest);
      step.done = true;
    }
  } catch (error) {
    throw failure(current!, error, await undo(steps, madeDirs));
  }
}

async function prepare(params: { repoDir: string; change: FileChange; steps: Step[]; madeDirs: string[] }) {
  const { change } = params;
  const abs = join(params.repoDir, change.file);
  const stat = await lstatOrNothing(abs);
  if (change.after === undefined) {
    // A link is removed itself, as `rm` removes it; a file that is already gone needs nothing.
    if (!stat) return;
    const kept = stat.isSymbolicLink() ? { link: await readlink(abs) } : await keep(abs);
    params.steps.push({ change, dest: abs, ...(kept ? { kept } : {}), done: false });
    return;
  }
  // A link inside the target (RepoFiles.editProblem checked where it leads) stays a link: the file it leads to is edited.
  const dest = stat?.isSymbolicLink() ? await realpath(abs) : abs;
  const kept = await keep(dest);
  const made = await mkdir(dirname(dest), { recursive: true });
  if (made) params.madeDirs.push(made);
  const temp = join(dirname(dest), `.${basename(dest)}.undrift-${process.pid}-${randomBytes(4).toString("hex")}`);
  // Recorded before the write, so a write that fails halfway (a full disk) is removed too.
  params.steps.push({ change, dest, ...(kept ? { kept } : {}), temp, done: false });
  await writeFile(temp, change.after, { flag: "wx" });
  if (kept && "mode" in kept) await chmod(temp, kept.mode);
}

/** The bytes and mode of a regular file; nothing for a path that does not exist or is not a file (its rename fails). */
async function keep(abs: string): Promise<Kept | undefined> {
  const stat = await lstatOrNothing(abs);
  if (!stat?.isFile()) return undefined;
  return { bytes: await readFile(abs), mode: stat.mode & 0o7777 };
}

/** Puts the tree back; the files that could not be put back, with why. */
async function undo(steps: Step[], madeDirs: string[]): Promise<Array<{ file: string; error: unknown }>> {
  const failed: Array<{ file: string; error: unknown }> = [];
  const attempt = async (file: string, action: () => Promise<unknown>) => {
    await action().catch((error: unknown) => failed.push({ file, error }));
  };
  for (const step of steps.toReversed()) {
    if (!step.done) {
      if (step.temp) await attempt(step.change.file, () => rm(step.temp!, { force: true }));
      continue;
    }
    const { kept, dest } = step;
    await attempt(step.change.file, async () => {
      if (!kept) await rm(dest, { force: true });
      else if ("link" in kept) await symlink(kept.link, dest);
      else {
        await writeFile(dest, kept.bytes);
        await chmod(dest, kept.mode);
      }
    });
  }
  // Only folders made here: they hold nothing but the temporary files just removed.
  for (const dir of madeDirs.toReversed()) await attempt(dir, () => rm(dir, { recursive: true, force: true }));
  return failed;
}

function failure(change: FileChange, error: unknown, notRestored: Array<{ file: string; error: unknown }>) {
  const verb = change.after === undefined ? "removed" : "written";
  let message = `${change.file}: cannot be ${verb}: ${fsReason(error)}; `;
  if (notRestored.length === 0) message += "no file was changed";
  else {
    const first = notRestored[0]!;
    const more = notRestored.length > 1 ? ` and ${notRestored.length - 1} more` : "";
    message += `putting back ${first.file}${more} failed too (${fsReason(first.error)}), so the tree is partly edited`;
  }
  return new CodifyWriteError(message, { file: change.file, cause: error });
}

async function lstatOrNothing(abs: string) {
  return lstat(abs).catch((error: NodeJS.ErrnoException) => {
    // ENOTDIR: a file where a folder of the path should be; the path does not exist, and making it fails later.
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
}
