// What an apply sends for an object that exists, when ignoreDifferences exempts
// some of its fields (Argo CD's RespectIgnoreDifferences, Flux's .spec.ignore):
// the exempt fields keep their live values. A field the applier will not own is
// left out of the body, so the apply does not touch it. A field it does own
// (from an earlier apply, or taken over from a person's kubectl scale) is sent
// with its live value: server-side apply removes an owned field the body leaves
// out, which would reset an HPA's replicas. A created object gets all of Git.
// The fields an object's own Argo CD annotation names
// (`argocd.argoproj.io/ignore-differences-json-pointers`) are exempt as the
// target's rules are, and only while the target respects them, as Argo CD
// honours that annotation in a sync only with RespectIgnoreDifferences=true.

import type { TargetConfig } from "../../config/schema.ts";
import { deepEqual, pointerOf, valueAt } from "../../drift/diff-values.ts";
import { setPath } from "../../drift/edit-object.ts";
import { pointer } from "../../drift/field-path.ts";
import { type IgnoreRule, type Jq, rulesFor, stripIgnored } from "../../drift/ignore-rules.ts";
import { Ownership } from "../../drift/managed-fields.ts";
import { groupOf } from "../../model/object-key.ts";
import { annotatedIgnorePointers } from "../../model/reconciler-annotations.ts";
import type { KubeObject, ManagedFieldsEntry } from "../../model/types.ts";

/**
 * The rules an apply respects: the target's ignoreDifferences (and each object's annotated pointers), or
 * undefined when the target sets respectIgnoreDifferences: false and an apply writes all of Git.
 */
export function respectedIgnoreRules(target: TargetConfig): IgnoreRule[] | undefined {
  return target.respectIgnoreDifferences ? target.ignoreDifferences : undefined;
}

export interface RespectedObject {
  /** The body to apply. */
  object: KubeObject;
  /** JSON pointers of the exempt fields whose live value the apply keeps where Git's would differ. */
  kept: string[];
}

export function respectIgnored(params: {
  desired: KubeObject;
  live: KubeObject;
  /** The live object's managedFields as they stand when the apply runs (after a takeover). */
  managedFields: ManagedFieldsEntry[] | undefined;
  fieldManager: string;
  /** respectedIgnoreRules(target): undefined when the target does not respect them. */
  rules: IgnoreRule[] | undefined;
  jq: Jq;
}): RespectedObject {
  const { desired, live, jq } = params;
  if (!params.rules) return { object: desired, kept: [] };
  const annotated = annotatedIgnorePointers(desired, live);
  const rules = [
    ...rulesFor(params.rules, live, groupOf(live.apiVersion)),
    ...(annotated.length > 0 ? [{ jsonPointers: annotated }] : []),
  ];
  if (rules.length === 0) return { object: desired, kept: [] };
  const liveOwnership = Ownership.of(live);
  const object = structuredClone(desired);
  stripIgnored({ objects: [object], rules, ownership: liveOwnership, jq });

  // The exempt fields, as pointers into either side.
  const ignored = new Set<string>();
  for (const rule of rules) {
    for (const p of rule.jsonPointers ?? []) ignored.add(p);
    for (const expression of rule.jqPathExpressions ?? []) {
      for (const side of [live, desired]) {
        try {
          for (const path of jq.paths(side, expression)) ignored.add(pointer(path));
        } catch {
          // As in the comparison: an expression that fails on this object exempts nothing here.
        }
      }
    }
    const managers = new Set(rule.managedFieldsManagers ?? []);
    for (const owned of liveOwnership.owned) {
      const at = managers.has(owned.owner.manager) ? pointerOf(live, owned.path) : undefined;
      if (at !== undefined) ignored.add(at);
    }
  }
  const within = (at: string) => [...ignored].some((i) => at === i || at.startsWith(`${i}/`));

  // Exempt fields the applier owns go back in with their live values, so the apply keeps them.
  const owned = new Ownership(params.managedFields).owned.filter(
    (o) => o.owner.manager === params.fieldManager && o.owner.operation === "Apply",
  );
  const ownedPointers: string[] = [];
  for (const o of owned) {
    const at = pointerOf(live, o.path);
    const value = valueAt(live, o.path);
    if (at === undefined || value === undefined || !within(at)) continue;
    setPath(object, o.path, structuredClone(value));
    ownedPointers.push(at);
  }

  const kept = [...ignored]
    .filter((at) => {
      const git = atPointer(desired, at);
      if (deepEqual(git, atPointer(live, at))) return false;
      return git !== undefined || ownedPointers.some((o) => o === at || o.startsWith(`${at}/`));
    })
    .sort();
  return { object, kept };
}

function atPointer(root: unknown, at: string): unknown {
  let node = root;
  for (const raw of at.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (node && typeof node === "object") node = (node as Record<string, unknown>)[key];
    else return undefined;
  }
  return node;
}
