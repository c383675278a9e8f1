// Which kustomization file a folder has, under the names kustomize itself accepts.
import { readdir } from "node:fs/promises";

/** The file names kustomize reads a kustomization from, in its order of preference. */
export const KUSTOMIZATION_NAMES = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/** The kustomization file name in `dir` (absolute), or undefined when the folder is not a kustomization. */
export async function findKustomization(dir: string): Promise<string | undefined> {
  const entries = new Set(await readdir(dir).catch(() => []));
  return KUSTOMIZATION_NAMES.find((name) => entries.has(name));
}
