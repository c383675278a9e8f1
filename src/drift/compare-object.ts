// Drift of one object that exists in Git and in the cluster, by the rules of
// DESIGN.md ("Words"): a field is drift when Git sets it and live differs, when
// the applier owns it and Git dropped it, or when a person added it by hand.
// Without `wouldBe` this is the fast local pass; with the server's dry-run
// result it is exact: what applying Git would change, plus hand-added fields.

import { isSecret } from "../model/is-secret.ts";
import { annotatedIgnorePointers, mergeBy } from "../model/reconciler-annotations.ts";
import type { Change, KubeObject } from "../model/types.ts";
import { cleanObject } from "./clean-object.ts";
import { type DiffContext, deepEqual, diffValues, isEmpty, pointerOf, type ValueDiff, valueAt } from "./diff-values.ts";
import { removePointer, setPath } from "./edit-object.ts";
import { type FieldPath, pathKey } from "./field-path.ts";
import { type IgnoreRule, type Jq, rulesFor, stripIgnored } from "./ignore-rules.ts";
import { isBuiltinGroup, ListShapes } from "./list-shapes.ts";
import { Ownership } from "./managed-fields.ts";
import { filtersKind, type NoiseFilter } from "./noise-filters.ts";
import { isQuantityPath, sameQuantity } from "./quantity.ts";

export interface ComparePolicy {
  /** The applier's field manager: fields it owns by Apply are Git's. */
  fieldManager: string;
  /** Whether a manager is a person's tool (kubectl, a console): fields only it set are drift. */
  isHuman(manager: string): boolean;
  noiseFilters: NoiseFilter[];
  ignoreRules: IgnoreRule[];
  jq: Jq;
}

export interface ObjectComparison {
  changes: Change[];
  /** The local pass found candidates only the API server can confirm (defaults, conversions, removals). */
  needsDryRun: boolean;
  /** Hand-added candidates exist that may be server defaults (an object created with kubectl create owns those too). */
  needsDefaults: boolean;
  /** Live and would-be objects as a diff should show them: cleaned, ignored fields removed. */
  live: KubeObject;
  wouldBe: KubeObject;
}

export function compareObject(params: {
  desired: KubeObject;
  live: KubeObject;
  wouldBe?: KubeObject;
  /** The desired object as the server would create it fresh (a dry-run create): its values are defaults, not hand edits. */
  defaulted?: KubeObject;
  group: string;
  policy: ComparePolicy;
}): ObjectComparison {
  const { group, policy } = params;
  const ownership = Ownership.of(params.live);
  const builtin = isBuiltinGroup(group);
  const shapes = new ListShapes({ ownership: [ownership, Ownership.of(params.wouldBe)], builtin });
  const context: DiffContext = {
    shapes,
    sameScalar: (path, a, b) => a === b || (builtin && isQuantityPath(path, params.live.kind) && sameQuantity(a, b)),
  };
  // Flux's `ssa: Merge`: a field another manager added and Git does not set is theirs (no rule 3).
  const merge = mergeBy(params.desired) !== undefined;
  const find = (desired: KubeObject, live: KubeObject, wouldBe?: KubeObject) =>
    findDrift({ desired, live, wouldBe, defaulted: params.defaulted, ownership, shapes, context, policy, merge });
  // The target's ignoreDifferences for this object, and the fields its own Argo CD annotation names.
  const annotated = annotatedIgnorePointers(params.desired, params.live);
  const rules = [
    ...rulesFor(policy.ignoreRules, params.live, group),
    ...(annotated.length ? [{ jsonPointers: annotated }] : []),
  ];

  // Most objects are in sync: settle those on the objects as they are, without copying them.
  // Anything found here is looked at again on clean copies with noise and ignored fields removed.
  const quick = !params.wouldBe && !isSecret(params.desired) && rules.length === 0;
  if (quick) {
    const found = find(params.desired, params.live);
    if (found.applied.length + found.human.length === 0) {
      return { changes: [], needsDryRun: false, needsDefaults: false, live: params.live, wouldBe: params.live };
    }
  }

  const [desired, live, wouldBe] = prepare([params.desired, params.live, params.wouldBe], ownership, rules, policy);
  const { applied, human } = find(desired, live, wouldBe);
  const all = [...applied, ...human];
  const shown = structuredClone(wouldBe ?? live);
  for (const d of wouldBe ? human : all) setPath(shown, d.path, d.b);
  return {
    changes: all.map((d) => toChange(d, ownership)),
    needsDryRun: !wouldBe && applied.length > 0,
    needsDefaults: !params.defaulted && human.length > 0,
    live,
    wouldBe: shown,
  };
}

/** Rules 1 and 2 (what applying Git changes: exact from the dry-run, else Git-set differences and fields the applier owned that Git dropped) and rule 3. */
function findDrift(params: {
  desired: KubeObject;
  live: KubeObject;
  wouldBe?: KubeObject | undefined;
  defaulted?: KubeObject | undefined;
  ownership: Ownership;
  shapes: ListShapes;
  context: DiffContext;
  policy: ComparePolicy;
  merge: boolean;
}): { applied: ValueDiff[]; human: ValueDiff[] } {
  const { desired, live, wouldBe, ownership, policy } = params;
  const applied: ValueDiff[] = wouldBe
    ? diffValues(live, wouldBe, params.context)
    : [
        ...diffValues(live, desired, { ...params.context, bSetOnly: true }),
        ...ownership.owned
          .filter((o) => o.owner.manager === policy.fieldManager && o.owner.operation === "Apply")
          .filter((o) => valueAt(desired, o.path) === undefined && !isEmpty(valueAt(live, o.path)))
          .map((o) => ({ path: o.path, pointer: pointerOf(live, o.path) ?? "", a: valueAt(live, o.path) }))
          // An item the applier owns as a whole is one change, not one per field inside it.
          .filter((d, _, all) => !coveredBy(d.path, all)),
      ];
  const human = params.merge
    ? []
    : humanAdded(ownership, desired, live, params.shapes, policy, applied).filter(
        (d) => !params.defaulted || !deepEqual(valueAt(params.defaulted, d.path), d.a),
      );
  return { applied, human };
}

/** Clean copies of each object with noise and ignored fields removed, so they compare like for like. */
function prepare(
  objects: Array<KubeObject | undefined>,
  ownership: Ownership,
  rules: IgnoreRule[],
  policy: ComparePolicy,
) {
  const cleaned = objects.map((o) => (o ? cleanObject(o) : undefined));
  if (cleaned[0] && isSecret(cleaned[0])) stringDataToData(cleaned[0]);
  const present = cleaned.filter((o): o is KubeObject => o !== undefined);
  for (const object of present)
    for (const filter of policy.noiseFilters)
      if (filtersKind(filter, object.kind)) removePointer(object, filter.pointer);
  if (rules.length > 0) stripIgnored({ objects: present, rules, ownership, jq: policy.jq });
  return cleaned as [KubeObject, KubeObject, KubeObject | undefined];
}

/** The API server stores a Secret's `stringData` base64-encoded in `data`; compare it that way. */
function stringDataToData(secret: KubeObject): void {
  const stringData = secret.stringData as Record<string, string> | undefined;
  if (!stringData) return;
  const data = (secret.data ?? {}) as Record<string, string>;
  for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(String(value)).toString("base64");
  secret.data = data;
  delete secret.stringData;
}

// Values the API server allocates, which a creator's managedFields entry owns but no person chose.
const allocated = [
  ["f:spec", "f:clusterIP"],
  ["f:spec", "f:clusterIPs"],
  ["f:spec", "f:healthCheckNodePort"],
].map((p) => p.join("/"));
const isAllocated = (path: FieldPath) => allocated.includes(path.join("/")) || path.at(-1) === "f:nodePort";

/** Rule 3: fields a person's tool set that Git does not set (whole list items count once). */
function humanAdded(
  ownership: Ownership,
  desired: KubeObject,
  live: KubeObject,
  shapes: ListShapes,
  policy: ComparePolicy,
  already: ValueDiff[],
): ValueDiff[] {
  const seen = new Set(already.map((d) => pathKey(d.path)));
  const out: ValueDiff[] = [];
  const owned = ownership.owned.filter((o) => policy.isHuman(o.owner.manager)).map((o) => o.path);
  owned.sort((a, b) => a.length - b.length);
  for (const path of owned) {
    if (seen.has(pathKey(path)) || coveredBy(path, out) || coveredBy(path, already) || isAllocated(path)) continue;
    if (setByGit(desired, path, shapes)) continue;
    const value = valueAt(live, path);
    if (isEmpty(value)) continue;
    const pointer = pointerOf(live, path);
    if (pointer === undefined) continue;
    out.push({ path, pointer, a: value });
    seen.add(pathKey(path));
  }
  return out;
}

function coveredBy(path: FieldPath, diffs: ValueDiff[]): boolean {
  return diffs.some((d) => d.path.length < path.length && d.path.every((t, i) => t === path[i]));
}

/** Whether Git sets the path, or an ancestor of it as one atomic value. */
function setByGit(desired: KubeObject, path: FieldPath, shapes: ListShapes): boolean {
  if (valueAt(desired, path) !== undefined) return true;
  for (let length = path.length - 1; length > 0; length--) {
    const value = valueAt(desired, path.slice(0, length));
    if (value === undefined) continue;
    if (Array.isArray(value)) return shapes.shapeOf(path.slice(0, length)).type === "atomic";
    return typeof value !== "object" || value === null;
  }
  return false;
}

function toChange(diff: ValueDiff, ownership: Ownership): Change {
  const change: Change = { path: diff.pointer };
  if (diff.b !== undefined) change.desired = diff.b;
  if (diff.a !== undefined) change.live = diff.a;
  const owner = diff.a === undefined ? undefined : ownership.attribute(diff.path);
  if (owner) {
    change.manager = owner.manager;
    if (owner.time) change.changedAt = owner.time;
  }
  return change;
}
