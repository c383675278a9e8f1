// What Git must change for a drifted object: one edit per reported change,
// at a managedFields-style path (list items by merge key), with the live value
// (or none: the field goes). A whole item or map a person added is written
// with only the fields some manager set, less the API server's defaults.
import { cleanObject } from "../../drift/clean-object.ts";
import { valueAt } from "../../drift/diff-values.ts";
import { setPath } from "../../drift/edit-object.ts";
import { type FieldPath, pathKey } from "../../drift/field-path.ts";
import { isBuiltinGroup, ListShapes } from "../../drift/list-shapes.ts";
import { Ownership } from "../../drift/managed-fields.ts";
import type { Change, KubeObject } from "../../model/types.ts";
import { ownedOnly } from "./owned-only.ts";
import { pointerToPath } from "./pointer-to-path.ts";
import { type AssumedDefault, stripDefaults } from "./strip-defaults.ts";

/** One field of one object to set in Git. */
export interface FieldEdit {
  path: FieldPath;
  /** The live value; undefined removes the field from Git. */
  value?: unknown;
  /** The reported change this edit answers (its JSON pointer). */
  pointer: string;
}

export function driftEdits(params: { desired: KubeObject; live: KubeObject; changes: Change[]; group: string }): {
  edits: FieldEdit[];
  /** Pointers of changes no path could be found for. */
  unresolved: string[];
  /** Fields of added values left out as server defaults. */
  defaults: AssumedDefault[];
} {
  const { changes, group } = params;
  const ownership = Ownership.of(params.live);
  const shapes = new ListShapes({ ownership: [ownership], builtin: isBuiltinGroup(group) });
  const live = cleanObject(params.live);
  const desired = cleanObject(params.desired);
  const edits: FieldEdit[] = [];
  const unresolved: string[] = [];
  const defaults: AssumedDefault[] = [];
  for (const change of changes) {
    // A change with no live value names a field only Git has: its pointer indexes the Git side.
    const found = pointerToPath({ root: change.live === undefined ? desired : live, pointer: change.path, shapes });
    if (!found) {
      unresolved.push(change.path);
      continue;
    }
    let value = found.truncated ? valueAt(live, found.path) : change.live;
    if (!found.truncated && typeof value === "object" && value !== null) {
      value = ownedOnly({ value, path: found.path, ownership, shapes }) ?? value;
      const root = {};
      setPath(root, found.path, value);
      const stripped = stripDefaults({ object: root, kind: params.live.kind, group });
      value = valueAt(stripped.object, found.path) ?? value;
      defaults.push(...stripped.removed);
    }
    edits.push(
      value === undefined
        ? { path: found.path, pointer: change.path }
        : { path: found.path, value, pointer: change.path },
    );
  }
  return { edits: withoutCovered(edits), unresolved, defaults };
}

/** Drops edits inside another edit's path (an atomic list several changes pointed into is set once). */
function withoutCovered(edits: FieldEdit[]): FieldEdit[] {
  const sorted = [...edits].sort((a, b) => a.path.length - b.path.length);
  const kept: FieldEdit[] = [];
  const seen = new Set<string>();
  for (const edit of sorted) {
    const covered = edit.path.some((_, i) => seen.has(pathKey(edit.path.slice(0, i + 1))));
    if (covered) continue;
    kept.push(edit);
    seen.add(pathKey(edit.path));
  }
  return edits.filter((e) => kept.includes(e));
}
