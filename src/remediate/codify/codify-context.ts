// What every planning step needs to know about the target being codified.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TargetConfig } from "../../config/schema.ts";
import type { ComparePolicy } from "../../drift/compare-object.ts";
import type { DesiredObject } from "../../model/types.ts";
import type { RepoFiles } from "./repo-files.ts";

export interface CodifyContext {
  target: TargetConfig;
  files: RepoFiles;
  policy: ComparePolicy;
  /** undrift's default tracking label when the target uses it (rendering adds it to every object). */
  trackingLabel?: { key: string; value: string } | undefined;
  /** The objects the target rendered to when it was scanned. */
  desired: DesiredObject[];
  /** Files this run creates, so two additions never share a name. */
  created: Set<string>;
}

/** Whether a file name is taken, in the repository or by this run. */
export function isTaken(context: CodifyContext, file: string): boolean {
  return context.created.has(file) || existsSync(join(context.files.repoDir, file));
}
