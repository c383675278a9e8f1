// What codify means to do for one object, as file operations. Plans are data:
// they are applied to in-memory texts, proved by rendering, and rolled back
// one object at a time, before anything is written.
import type { Pairing } from "../../drift/build-report.ts";
import type { FieldPath } from "../../drift/field-path.ts";
import type { ObjectRef } from "../../model/object-label.ts";
import type { DriftStatus } from "../../model/types.ts";
import type { AssumedDefault } from "./strip-defaults.ts";

export type FileOp =
  /** Sets (value) or removes (no value) one field of one document. */
  | { kind: "set"; file: string; document: number; path: FieldPath; value?: unknown }
  /** Removes a document (or item `item` of the List it holds); the file goes when nothing is left. */
  | { kind: "remove-document"; file: string; document: number; item?: number }
  /** Creates a file unless it already exists (then later ops edit it). */
  | { kind: "create-file"; file: string; text: string };

export interface ObjectPlan {
  /** The object's key string (group/kind/namespace/name). */
  id: string;
  ref: ObjectRef;
  /** The scan's finding: a drifted object is edited, a missing one removed from Git, an orphan added. */
  status: DriftStatus;
  pairing: Pairing;
  ops: FileOp[];
  /** Said with a failed proof, when the place chosen makes one likely (a generated object, say). */
  hint?: string;
  /** Values left out of Git as the server's defaults: the proof does not count them as drift. */
  defaults?: AssumedDefault[];
}

/** An object codify leaves as it is, and why. */
export interface Refusal {
  reason: string;
}
