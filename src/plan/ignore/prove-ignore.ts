// The proof of an ignore plan: the scan with the edited config against the
// scan without it. Every planned field must be gone, and on the objects the
// new rules reach nothing may appear that was not there before (a rule that
// shifts a list, say, would make other fields differ). Objects the rules do
// not reach are not judged: a change there between the two scans is the
// cluster's, not the rule's. Pure: two reports in, the verdict out.
import { rulesFor } from "../../drift/ignore-rules.ts";
import { groupOf, keyString, refKey } from "../../model/object-key.ts";
import type { ObjectRef } from "../../model/object-label.ts";
import type { DriftReport, ResourceReport } from "../../model/types.ts";
import type { PlannedField, PlanRule } from "./plan-ignore-rule.ts";

export interface IgnoreProof {
  /** What the rules hide from now on, per object: the fields the first scan reported and the second does not. */
  hidden: Array<{ object: ObjectRef; paths: string[] }>;
  /** Planned fields the second scan still reports. */
  still: Array<{ object: ObjectRef; path: string }>;
  /** Fields the second scan reports on the rules' objects that the first did not. */
  appeared: Array<{ object: ObjectRef; path: string }>;
}

export function proveIgnore(params: {
  before: DriftReport;
  after: DriftReport;
  planned: readonly PlannedField[];
  /** The rules the plan added or extended. */
  rules: readonly PlanRule[];
}): IgnoreProof {
  const { before, after } = params;
  const proof: IgnoreProof = { hidden: [], still: [], appeared: [] };
  const afterByKey = new Map(after.resources.map((r) => [keyString(refKey(r)), r]));
  const beforeByKey = new Map(before.resources.map((r) => [keyString(refKey(r)), r]));
  const counted = (r: ResourceReport | undefined) => (r?.status === "drifted" ? r.changes.map((c) => c.path) : []);

  for (const field of params.planned) {
    const key = keyString(refKey(field.tick));
    const left = counted(afterByKey.get(key));
    if (left.some((p) => p === field.path || p.startsWith(`${field.path}/`)))
      proof.still.push({ object: refOf(field.tick), path: field.path });
  }
  for (const resource of before.resources) {
    if (!reached(params.rules, resource)) continue;
    const key = keyString(refKey(resource));
    const now = new Set(counted(afterByKey.get(key)));
    const gone = counted(resource).filter((p) => !now.has(p));
    if (gone.length > 0) proof.hidden.push({ object: refOf(resource), paths: gone });
  }
  for (const resource of after.resources) {
    if (!reached(params.rules, resource)) continue;
    const was = new Set(counted(beforeByKey.get(keyString(refKey(resource)))));
    for (const path of counted(resource)) if (!was.has(path)) proof.appeared.push({ object: refOf(resource), path });
  }
  return proof;
}

const refOf = (ref: ObjectRef): ObjectRef => ({
  apiVersion: ref.apiVersion,
  kind: ref.kind,
  ...(ref.namespace ? { namespace: ref.namespace } : {}),
  name: ref.name,
});

function reached(rules: readonly PlanRule[], ref: ObjectRef): boolean {
  const object = {
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
  };
  return rulesFor([...rules], object, groupOf(ref.apiVersion)).length > 0;
}
