// Whether an object read again differs from the read a revert planned on only
// in what the revert never judged, so that the revert may go on from the new
// read instead of refusing:
// - its status, which a controller writes all through a rollout (a Deployment's
//   replicas, conditions and observedGeneration);
// - the annotations and labels that controllers alone own and Git does not
//   declare, such as the deployment.kubernetes.io/revision annotation that the
//   Deployment controller bumps just after the hand edit that starts a rollout
//   (a revert right after `kubectl set image` met that write and was refused).
// Any other write since the read, a person's anywhere or a controller's to the
// spec or to metadata that Git or a person owns, must be judged by a scan of
// its own.
import { escapePointer, type FieldPath, pathKey } from "../../drift/field-path.ts";
import { ownedPaths } from "../../drift/managed-fields.ts";
import type { KubeObject, ManagedFieldsEntry } from "../../model/types.ts";

export interface JudgedBy {
  /** The object the revert applies: the annotations and labels it declares stay judged. */
  desired: KubeObject;
  /** undrift's own field manager. */
  fieldManager: string;
  isHuman: (manager: string) => boolean;
}

const maps = ["annotations", "labels"] as const;

/** Whether the two reads differ in nothing the revert judged. */
export function changedNothingJudged(before: KubeObject, after: KubeObject, by: JudgedBy): boolean {
  return judgedChange(before, after, by) === undefined;
}

/**
 * Where the two reads first differ in what the revert judged, as a JSON pointer (a managed-fields entry by its
 * manager), so that a refused revert says what moved; undefined when nothing judged changed.
 */
export function judgedChange(before: KubeObject, after: KubeObject, by: JudgedBy): string | undefined {
  // Status entries count too: the Deployment controller's revision annotation is owned by its status entry.
  const entries = [...(before.metadata.managedFields ?? []), ...(after.metadata.managedFields ?? [])];
  const isController = (e: ManagedFieldsEntry) =>
    e.manager !== undefined && e.manager !== by.fieldManager && !by.isHuman(e.manager);
  const metadataKeys = (e: ManagedFieldsEntry) => ownedPaths(e.fieldsV1).flatMap((path) => metadataKey(path) ?? []);
  // Keys some controller owns, less those a person or undrift owns (in either read) and those Git declares.
  const notControllers = new Set(entries.filter((e) => !isController(e)).flatMap(metadataKeys));
  const declared = new Set(maps.flatMap((m) => Object.keys(by.desired.metadata[m] ?? {}).map((key) => `${m}/${key}`)));
  const exempt = new Set(
    entries
      .filter(isController)
      .flatMap(metadataKeys)
      .filter((key) => !notControllers.has(key) && !declared.has(key)),
  );

  const rest = ({ status: _status, metadata, ...object }: KubeObject) => {
    // The generation follows the spec, which is compared, and for a Deployment its annotations too (its strategy
    // bumps the generation on any annotation change), so an exempt annotation moves it.
    const { resourceVersion: _version, generation: _generation, managedFields, ...meta } = metadata;
    // No map and a map of exempt keys alone are the same: a scan may read a Deployment before its controller's
    // first sync, when it has no annotations at all, and the read again finds only the revision annotation.
    for (const m of maps) {
      const kept = Object.entries(meta[m] ?? {}).filter(([key]) => !exempt.has(`${m}/${key}`));
      if (kept.length > 0) meta[m] = Object.fromEntries(kept);
      else delete meta[m];
    }
    // A person's or undrift's entry must be as read, its time too (a person may rewrite a value they own). A
    // controller's entry is compared by what it owns beyond the exempt keys: its time moves with each write to
    // them. Status entries are left out, as status is. The API server may reorder entries, so they are sorted.
    const judged = (managedFields ?? [])
      .flatMap((e) => {
        if (e.subresource === "status") return [];
        if (!isController(e)) return [JSON.stringify(e)];
        const owned = ownedPaths(e.fieldsV1)
          .filter((path) => !exempt.has(metadataKey(path) ?? ""))
          .map(pathKey);
        return owned.length > 0 ? [JSON.stringify({ manager: e.manager, operation: e.operation, owned })] : [];
      })
      .sort();
    return { ...object, metadata: { ...meta }, managedFields: judged };
  };
  const [a, b] = [rest(before), rest(after)];
  const [entriesA, entriesB] = [a.managedFields, b.managedFields];
  const moved = [...entriesA.filter((e) => !entriesB.includes(e)), ...entriesB.filter((e) => !entriesA.includes(e))];
  const { managedFields: _a, ...objectA } = a;
  const { managedFields: _b, ...objectB } = b;
  const at = firstDifference(objectA, objectB, "");
  if (at !== undefined) return at;
  if (moved.length > 0) return `/metadata/managedFields (${(JSON.parse(moved[0]!) as ManagedFieldsEntry).manager})`;
  return undefined;
}

/** The JSON pointer of the first place two plain JSON values differ, in key order; undefined when equal. */
function firstDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (a === b) return undefined;
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (!isMap(a) || !isMap(b) || Array.isArray(a) !== Array.isArray(b)) return at || "/";
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const key of keys) {
    const found = firstDifference(a[key], b[key], `${at}/${escapePointer(key)}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** "annotations/<key>" or "labels/<key>" for a path to one annotation or label. */
function metadataKey(path: FieldPath): string | undefined {
  const [metadata, map, key, ...below] = path;
  const which = maps.find((m) => `f:${m}` === map);
  if (metadata !== "f:metadata" || !which || !key?.startsWith("f:") || below.length > 0) return undefined;
  return `${which}/${key.slice(2)}`;
}
