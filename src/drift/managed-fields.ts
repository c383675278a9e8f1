// Who owns which field of a live object, read from `metadata.managedFields`:
// the basis of attribution ("kubectl-edit changed this at 10:02") and of the
// ownership rules that separate drift from defaults and controllers' fields.

import type { FieldsV1, KubeObject, ManagedFieldsEntry } from "../model/types.ts";
import { type FieldPath, pathKey } from "./field-path.ts";

export interface Owner {
  manager: string;
  operation: string;
  time?: string;
}

export interface OwnedPath {
  path: FieldPath;
  owner: Owner;
}

/**
 * Every path an entry owns: leaves, and list items it owns as a whole (`.` under a `k:`/`v:`/`i:` token).
 * A `.` under a field only says the manager created the map; its keys are listed and owned one by one.
 */
export function ownedPaths(fields: FieldsV1 | undefined, prefix: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [];
  for (const [token, child] of Object.entries(fields ?? {})) {
    if (token === ".") continue;
    const path = [...prefix, token];
    const children = Object.keys(child ?? {});
    const wholeItem = !token.startsWith("f:") && children.includes(".");
    if (children.length === 0 || wholeItem) out.push(path);
    if (children.some((c) => c !== ".")) out.push(...ownedPaths(child, path));
  }
  return out;
}

/** Ownership of one live object, indexed by path. Status-subresource entries are left out: status is never drift. */
export class Ownership {
  readonly owned: OwnedPath[] = [];
  private readonly byPath = new Map<string, Owner[]>();
  /** Key field names of keyed lists, by the path of the list, as the managers' `k:` tokens show them. */
  readonly listKeys = new Map<string, string[]>();
  /** Paths of lists the managers treat as sets (`v:` tokens). */
  readonly setLists = new Set<string>();

  constructor(entries: ManagedFieldsEntry[] | undefined) {
    for (const entry of entries ?? []) {
      if (entry.subresource === "status") continue;
      const owner: Owner = { manager: entry.manager ?? "unknown", operation: entry.operation ?? "Update" };
      if (entry.time) owner.time = entry.time;
      for (const path of ownedPaths(entry.fieldsV1)) {
        this.owned.push({ path, owner });
        const key = pathKey(path);
        this.byPath.set(key, [...(this.byPath.get(key) ?? []), owner]);
        this.learnListShape(path);
      }
    }
  }

  static of(object: KubeObject | undefined): Ownership {
    return new Ownership(object?.metadata.managedFields);
  }

  /** Owners of exactly this path. */
  ownersOf(path: FieldPath): Owner[] {
    return this.byPath.get(pathKey(path)) ?? [];
  }

  /** The owner to credit for a change at `path`: the path's own owner, else the nearest owned ancestor, else the latest owner below it. */
  attribute(path: FieldPath): Owner | undefined {
    for (let length = path.length; length > 0; length--) {
      const owners = this.ownersOf(path.slice(0, length));
      if (owners.length > 0) return latest(owners);
    }
    const prefix = pathKey(path);
    const below = this.owned.filter((o) => pathKey(o.path).startsWith(`${prefix}\u0000`)).map((o) => o.owner);
    return below.length > 0 ? latest(below) : undefined;
  }

  private learnListShape(path: FieldPath): void {
    path.forEach((token, index) => {
      const listPath = pathKey(path.slice(0, index));
      if (token.startsWith("k:")) this.listKeys.set(listPath, Object.keys(JSON.parse(token.slice(2)) as object));
      else if (token.startsWith("v:")) this.setLists.add(listPath);
    });
  }
}

/** The owner that wrote last; entries without a time count as oldest. */
export function latest(owners: Owner[]): Owner | undefined {
  return owners.reduce<Owner | undefined>(
    (best, o) => (!best || (o.time ?? "") > (best.time ?? "") ? o : best),
    undefined,
  );
}
