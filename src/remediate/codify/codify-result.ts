// What `undrift codify` did, or would do: the files it changes (texts before
// and after, so the command can write them or print their diff), the objects
// it codified and, for every other drifted object, why not.

import type { ObjectRef } from "../../model/object-label.ts";
import type { DriftStatus, ScanProblem } from "../../model/types.ts";

/** One file codify changes: no `before` when it adds the file, no `after` when it removes it. */
export interface FileChange {
  file: string;
  before?: string;
  after?: string;
}

export interface CodifiedObject extends ObjectRef {
  /** What was drift: a drifted object was edited, a missing one removed from Git, an orphan added. */
  status: DriftStatus;
  /** The file its edit went to (the first, when there are several). */
  file: string;
  files: string[];
}

export interface NotCodifiedObject extends ObjectRef {
  reason: string;
}

export interface CodifyResult {
  target: string;
  files: FileChange[];
  codified: CodifiedObject[];
  notCodified: NotCodifiedObject[];
  /** Kinds or objects the scan could not compare: their drift is unknown, so not codified either. */
  problems: ScanProblem[];
}
