// Which kustomization file a folder has, under the names kustomize itself accepts.
import { readdir } from "node:fs/promises";

const names = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/** The kustomization file name in `dir` (absolute), or undefined when the folder is not a kustomization. */
export async function findKustomization(dir: string): Promise<string | undefined> {
  const entries = new Set(await readdir(dir).catch(() => []));
  return names.find((name) => entries.has(name));
}
