// Writes codify's changes into the working tree; the dry-run twin prints
// filesDiff of the same records instead.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FileChange } from "./codify-result.ts";

export async function writeFileChanges(params: { repoDir: string; changes: FileChange[] }): Promise<void> {
  for (const change of params.changes) {
    const abs = join(params.repoDir, change.file);
    if (change.after === undefined) await rm(abs, { force: true });
    else {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, change.after);
    }
  }
}
