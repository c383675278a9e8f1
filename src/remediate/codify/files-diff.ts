// The unified diff of the files codify changes, as `git diff` prints it:
// a/ and b/ prefixes, /dev/null for an added or removed file.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import type { FileChange } from "./codify-result.ts";

export function filesDiff(changes: FileChange[]): string {
  return changes
    .map((change) => {
      const oldName = change.before === undefined ? "/dev/null" : `a/${change.file}`;
      const newName = change.after === undefined ? "/dev/null" : `b/${change.file}`;
      const patch = structuredPatch(oldName, newName, change.before ?? "", change.after ?? "", undefined, undefined, {
        context: 3,
      });
      return formatPatch(patch, FILE_HEADERS_ONLY);
    })
    .join("");
}
