// A file of codify's edits that could not be written (a folder in the way, a
// read-only file system, a full disk), said in one line naming the file and
// whether the working tree was left as it was.
import { UndriftError } from "../../model/undrift-error.ts";

// Conditions another attempt may not meet: a full disk or quota, a busy or exhausted system.
const TRANSIENT = new Set(["ENOSPC", "EDQUOT", "EAGAIN", "EBUSY", "EMFILE", "ENFILE", "EINTR"]);

/** Codify's edits were not written; `restored` false when undoing a part already written failed too. */
export class CodifyWriteError extends UndriftError {
  override name = "CodifyWriteError";
  /** The repository-relative file that failed. */
  readonly file: string;

  /** A full disk or a busy system may pass; a folder in the way or a read-only tree stays until someone moves it. */
  get permanent(): boolean {
    return !TRANSIENT.has(codeOf(this.cause) ?? "");
  }

  constructor(message: string, options: { file: string; cause: unknown }) {
    super(message, { cause: options.cause });
    this.file = options.file;
  }
}

/** Why a file-system call failed, in words, with its code: `a folder is in the way (EISDIR)`. */
export function fsReason(error: unknown): string {
  const code = codeOf(error);
  const words = code && REASONS[code];
  if (words) return `${words} (${code})`;
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}

const REASONS: Record<string, string> = {
  EISDIR: "a folder is in the way",
  ENOTDIR: "a folder on its path is a file",
  EEXIST: "a file is in the way of a folder on its path",
  ENOTEMPTY: "a folder is in the way",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENAMETOOLONG: "its name is too long",
  ELOOP: "too many symbolic links on its path",
  ENOENT: "a folder on its path is gone",
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
