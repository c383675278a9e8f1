// A repository snapshot that was refused or could not be read. Never worth a
// retry: the same commit yields the same archive.
import { UndriftError } from "../model/undrift-error.ts";

/** unsafe: a path or link leaving the tree, a device file; too-large: over a size or count limit; corrupt: not a tar archive. */
export type SnapshotProblem = "unsafe" | "too-large" | "corrupt";

export class SnapshotError extends UndriftError {
  override name = "SnapshotError";
  // The same commit yields the same archive.
  readonly permanent = true;
  readonly problem: SnapshotProblem;

  constructor(problem: SnapshotProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.problem = problem;
  }
}
