// The parts of the target's own kustomization that decide where an edit goes:
// its name prefix/suffix and namespace (what the overlay does to names), its
// `images:` and `replicas:` entries, and the patch files it applies.
import { posix } from "node:path";
import { readDocument } from "./read-document.ts";
import type { RepoFiles } from "./repo-files.ts";

export interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface Kustomization {
  file: string;
  dir: string;
  value: Record<string, unknown>;
  namePrefix: string;
  nameSuffix: string;
  namespace?: string;
  images: ImageEntry[];
  /** `replicas:` entries: the replica count the kustomization sets per object name. */
  replicas: Array<{ name: string; count: number }>;
  /** Repository paths of the patch files it lists (`patches[].path`, `patchesStrategicMerge`), with any `target`. */
  patchFiles: Array<{ file: string; target?: { kind?: string; name?: string } }>;
}

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function readKustomization(params: {
  files: RepoFiles;
  file: string;
}): Promise<Kustomization | undefined> {
  const { file } = params;
  const text = await params.files.read(file);
  if (text === undefined) return undefined;
  const read = readDocument({ file, text, document: 0 });
  if ("reason" in read || !isRecord(read.value)) return undefined;
  const value = read.value;
  const dir = posix.dirname(file);
  const images = (Array.isArray(value.images) ? value.images : []).filter(isRecord).flatMap((e) => {
    const name = str(e.name);
    if (name === undefined) return [];
    const entry: ImageEntry = { name };
    for (const field of ["newName", "newTag", "digest"] as const) {
      const v = str(e[field]);
      if (v !== undefined) entry[field] = v;
    }
    return [entry];
  });
  const replicas = (Array.isArray(value.replicas) ? value.replicas : []).filter(isRecord).flatMap((e) => {
    const name = str(e.name);
    return name !== undefined && typeof e.count === "number" ? [{ name, count: e.count }] : [];
  });
  const patchFiles: Kustomization["patchFiles"] = [];
  for (const entry of Array.isArray(value.patches) ? value.patches : []) {
    if (!isRecord(entry) || typeof entry.path !== "string") continue;
    const target = isRecord(entry.target)
      ? {
          ...(str(entry.target.kind) ? { kind: str(entry.target.kind)! } : {}),
          ...(str(entry.target.name) ? { name: str(entry.target.name)! } : {}),
        }
      : undefined;
    patchFiles.push({ file: posix.join(dir, entry.path), ...(target ? { target } : {}) });
  }
  for (const entry of Array.isArray(value.patchesStrategicMerge) ? value.patchesStrategicMerge : []) {
    if (typeof entry === "string" && !entry.includes("\n")) patchFiles.push({ file: posix.join(dir, entry) });
  }
  return {
    file,
    dir,
    value,
    namePrefix: str(value.namePrefix) ?? "",
    nameSuffix: str(value.nameSuffix) ?? "",
    ...(str(value.namespace) ? { namespace: str(value.namespace)! } : {}),
    images,
    replicas,
    patchFiles,
  };
}
