// The proof: the target rendered from the edited files, compared in memory
// with the same live objects the scan saw. A drifted object must no longer
// differ where the scan said it did, and the edit must not make it differ
// anywhere new; a missing one must be gone from Git; an orphan must now be
// declared as it runs. Objects codify did not mean to touch must render as
// before. The local pass can see defaulted values the server would not, so
// only the scan's own changes must disappear; values a plan left out as the
// server's defaults are not counted (the next scan checks them with the server).

import { type ComparePolicy, compareObject } from "../../drift/compare-object.ts";
import { setPath } from "../../drift/edit-object.ts";
import { groupOf, keyString, objectKey } from "../../model/object-key.ts";
import { objectLabel } from "../../model/object-label.ts";
import type { Change, DesiredObject, KubeObject } from "../../model/types.ts";
import type { ObjectPlan } from "./object-plan.ts";
import { sameValue } from "./yaml/same-value.ts";

export interface Judgement {
  /** Why each plan that failed its proof failed, by plan id. */
  reasons: Map<string, string>;
  /** Objects no plan meant to change whose render changed. */
  collateral: string[];
}

export function judgeRender(params: {
  plans: ObjectPlan[];
  rendered: DesiredObject[];
  original: DesiredObject[];
  policy: ComparePolicy;
}): Judgement {
  const { plans, policy } = params;
  const byKey = new Map(params.rendered.map((d) => [keyString(objectKey(d.object)), d.object]));
  const reasons = new Map<string, string>();
  for (const plan of plans) {
    const defaulted = defaultsOf(plan);
    const compare = (desired: KubeObject, live: KubeObject) =>
      compareObject({ desired, live, group: groupOf(live.apiVersion), policy, ...defaulted }).changes;
    const rendered = byKey.get(plan.id);
    const live = plan.pairing.live;
    let reason: string | undefined;
    if (plan.status === "missing") {
      if (rendered) reason = "the edited files still declare it";
    } else if (!rendered || !live) {
      reason =
        plan.status === "orphaned"
          ? "the new manifest does not render as this object"
          : "the edited files no longer declare it";
    } else if (plan.status === "orphaned") {
      const left = compare(rendered, live);
      if (left.length > 0) reason = `the new manifest still differs from the live object at ${pointers(left)}`;
    } else {
      const left = compare(rendered, live);
      const reported = new Set(plan.pairing.comparison!.changes.map((c) => c.path));
      const still = left.filter((c) => reported.has(c.path));
      const before = new Set(compare(plan.pairing.desired!.object, live).map(signature));
      const added = left.filter((c) => !reported.has(c.path) && !before.has(signature(c)));
      if (still.length > 0) reason = `the edit did not make the drift disappear (still differs at ${pointers(still)})`;
      else if (added.length > 0) reason = `the edit would make it differ at ${pointers(added)}`;
    }
    if (reason) reasons.set(plan.id, plan.hint ? `${reason}; ${plan.hint}` : reason);
  }

  const planned = new Set(plans.map((p) => p.id));
  const collateral: string[] = [];
  const before = new Set<string>();
  for (const { object } of params.original) {
    const key = keyString(objectKey(object));
    before.add(key);
    if (planned.has(key)) continue;
    const now = byKey.get(key);
    if (!now || !sameValue(now, object)) collateral.push(objectLabel(refOf(object)));
  }
  for (const [key, object] of byKey)
    if (!before.has(key) && !planned.has(key)) collateral.push(objectLabel(refOf(object)));
  return { reasons, collateral };
}

function pointers(changes: Change[]): string {
  const shown = changes.slice(0, 3).map((c) => c.path || "/");
  return changes.length > 3 ? `${shown.join(", ")} and ${changes.length - 3} more` : shown.join(", ");
}

function signature(change: Change): string {
  return `${change.path}\u0000${JSON.stringify(change.desired)}\u0000${JSON.stringify(change.live)}`;
}

function refOf(object: KubeObject) {
  const { namespace, name } = object.metadata;
  return { apiVersion: object.apiVersion, kind: object.kind, name, ...(namespace ? { namespace } : {}) };
}

/** The values a plan left out as server defaults, as the `defaulted` object compareObject takes. */
function defaultsOf(plan: ObjectPlan): { defaulted?: KubeObject } {
  if (!plan.defaults || plan.defaults.length === 0) return {};
  const defaulted = { apiVersion: "", kind: "", metadata: { name: "" } } as KubeObject;
  for (const { path, value } of plan.defaults) setPath(defaulted, path, value);
  return { defaulted };
}
