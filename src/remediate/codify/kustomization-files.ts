// Every kustomization file inside the target's folder: any of them may list a
// file codify removes in its `resources`.
import { readdir } from "node:fs/promises";
import { join, posix } from "node:path";
import { findKustomization } from "../../desired/find-kustomization.ts";

export async function kustomizationFiles(params: { repoDir: string; dir: string }): Promise<string[]> {
  const { repoDir, dir } = params;
  const out: string[] = [];
  const own = await findKustomization(join(repoDir, dir));
  if (own) out.push(posix.join(dir, own));
  const entries = await readdir(join(repoDir, dir), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory() && !entry.name.startsWith(".")) {
      out.push(...(await kustomizationFiles({ repoDir, dir: posix.join(dir, entry.name) })));
    }
  }
  return out;
}
