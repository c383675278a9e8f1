// The patch file codify writes for an object in the target's folder,
// undrift-patches/<kind>-<name>.yaml: the one a previous run wrote for the
// same object, else a free name; one per object and run.
import { posix } from "node:path";
import { keyString, objectKey } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";
import { isTaken } from "./codify-context.ts";
import type { Declared, KustomizeContext } from "./kustomize-plan-types.ts";
import { newFileName } from "./new-file-name.ts";
import type { FileOp } from "./object-plan.ts";
import { readDocument } from "./read-document.ts";
import type { Kustomization } from "./read-kustomization.ts";

/** `prefix` tells patches apart by purpose ("delete-" for a patch that deletes the object). */
export async function ownPatchFile(
  k: KustomizeContext,
  object: KubeObject,
  declared: Declared,
  prefix: string,
): Promise<string> {
  const id = `${prefix}${keyString(objectKey(object))}`;
  const claimed = k.ownPatches.get(id);
  if (claimed) return claimed;
  const { context } = k;
  const dir = posix.join(k.kustomization.dir, "undrift-patches");
  const kind = `${prefix}${object.kind}`;
  let file = posix.join(dir, `${`${kind}-${declared.name}`.toLowerCase().replace(/[^a-z0-9.-]+/g, "-")}.yaml`);
  const text = context.created.has(file) ? undefined : await context.files.read(file);
  const read = text === undefined ? undefined : readDocument({ file, text, document: 0 });
  const value = read && "value" in read ? (read.value as Partial<KubeObject> | null) : undefined;
  const reusable = value?.kind === object.kind && value?.metadata?.name === declared.name;
  if (context.created.has(file) || (text !== undefined && !reusable)) {
    const namespace = object.metadata.namespace;
    file = newFileName({ dir, kind, name: declared.name, namespace, taken: (f) => isTaken(context, f) });
  }
  context.created.add(file);
  k.ownPatches.set(id, file);
  return file;
}

/** The kustomization's `patches:` entry for a patch file, unless it is listed already. */
export function listPatch(kustomization: Kustomization, file: string): FileOp[] {
  if (kustomization.patchFiles.some((p) => p.file === file)) return [];
  const path = posix.relative(kustomization.dir, file);
  const entry = ["f:patches", `v:${JSON.stringify({ path })}`];
  return [{ kind: "set", file: kustomization.file, document: 0, path: entry, value: { path } }];
}
