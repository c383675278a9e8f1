// An image change as edits of the `images:` entry that sets it: newName when
// the name changed, newTag or digest for the rest, the other one removed.
import type { FieldPath } from "../../drift/field-path.ts";
import { imageEntryFor } from "./image-entry-for.ts";
import { parseImage } from "./image-reference.ts";
import type { FileOp } from "./object-plan.ts";
import type { Kustomization } from "./read-kustomization.ts";

export function imageOps(kustomization: Kustomization, from: string, to: string): FileOp[] {
  const entry = imageEntryFor(kustomization, from)!;
  const before = parseImage(from);
  const after = parseImage(to);
  const at = (field: string): FieldPath => ["f:images", `k:${JSON.stringify({ name: entry.name })}`, `f:${field}`];
  const set = (field: string, value?: string): FileOp => ({
    kind: "set",
    file: kustomization.file,
    document: 0,
    path: at(field),
    ...(value === undefined ? {} : { value }),
  });
  const ops: FileOp[] = [];
  if (after.name !== before.name) ops.push(set("newName", after.name));
  if (after.digest) {
    ops.push(set("digest", after.digest));
    if (entry.newTag !== undefined) ops.push(set("newTag"));
  } else {
    if (after.tag !== before.tag) ops.push(set("newTag", after.tag));
    if (entry.digest !== undefined) ops.push(set("digest"));
  }
  return ops;
}
