// The strategic-merge patch documents the target's kustomization applies from
// files inside the target's folder, with the object each one targets: an
// overlay's patch that sets a field is where a new value of that field belongs.
import { readDocument } from "./read-document.ts";
import type { Kustomization } from "./read-kustomization.ts";
import type { RepoFiles } from "./repo-files.ts";
import { parseYamlFile } from "./yaml/parse-yaml-file.ts";

export interface PatchDocument {
  file: string;
  document: number;
  kind: string;
  name: string;
  value: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function patchDocuments(params: {
  files: RepoFiles;
  kustomization: Kustomization;
}): Promise<PatchDocument[]> {
  const { files } = params;
  const out: PatchDocument[] = [];
  for (const { file, target } of params.kustomization.patchFiles) {
    if (!files.inTarget(file) || (await files.editProblem(file))) continue;
    const text = await files.read(file);
    if (text === undefined) continue;
    let count = 0;
    try {
      count = parseYamlFile({ file, text }).documents.length;
    } catch {
      continue; // kustomize reports a broken patch itself
    }
    for (let document = 0; document < count; document++) {
      const read = readDocument({ file, text, document });
      // JSON 6902 patches are lists of operations: not strategic-merge documents.
      if ("reason" in read || !isRecord(read.value)) continue;
      const value = read.value;
      const metadata = isRecord(value.metadata) ? value.metadata : {};
      const kind = target?.kind ?? (typeof value.kind === "string" ? value.kind : "");
      const name = target?.name ?? (typeof metadata.name === "string" ? metadata.name : "");
      if (kind && name) out.push({ file, document, kind, name, value });
    }
  }
  return out;
}
