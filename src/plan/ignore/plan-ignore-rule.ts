// The narrowest ignoreDifferences rule that makes a ticked field (or a whole
// drifted object) of a report stop counting, in Argo CD's shape:
//   - scoped by group, kind and name, and by namespace only when another object
//     of the same group, kind and name in the target lives in another namespace;
//   - by `managedFieldsManagers` when the field's last writer is a controller
//     (a manager that is neither undrift's applier nor a person's tool), since a
//     controller that owns a field keeps writing it wherever it moves;
//   - else by the field's JSON pointer;
//   - merged into an existing rule of exactly the same scope instead of a second one;
//   - nothing when an existing rule already covers the field.
// Pure: the report and the target's rules in, the rules after and why out.
//
//   const plan = planIgnoreRule({ report, rules: target.ignoreDifferences, ticks, isController });
//   plan.changed  // indices of plan.rules that were added or extended: what the YAML edit writes
import { rulesFor } from "../../drift/ignore-rules.ts";
import { groupOf, keyString, refKey } from "../../model/object-key.ts";
import type { ObjectRef } from "../../model/object-label.ts";
import type { Change, DriftReport, ResourceReport } from "../../model/types.ts";

/** A ticked field of an object (its report's JSON pointer), or the whole object when `path` is absent. */
export interface IgnoreTick extends ObjectRef {
  path?: string;
}

/** An ignoreDifferences rule as the config holds it after parsing (every list present). */
export interface PlanRule {
  group?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  jsonPointers: string[];
  jqPathExpressions: string[];
  managedFieldsManagers: string[];
}

/** How one field is hidden: by its pointer, or by the controller that writes it. */
export interface PlannedField {
  tick: IgnoreTick;
  /** The report's pointer of the field (for a whole object, each of its changes). */
  path: string;
  by: "jsonPointer" | "manager";
  /** The pointer or the manager added to the rule. */
  value: string;
  /** Index into `rules`. */
  rule: number;
}

export interface IgnorePlan {
  /** The target's rules after the plan: the existing ones, some extended, then the new ones. */
  rules: PlanRule[];
  /** Indices of `rules` the plan added or extended, ascending. */
  changed: number[];
  planned: PlannedField[];
  /** Ticks an existing rule already hides: nothing to add. */
  covered: Array<{ tick: IgnoreTick; rule: number }>;
  /** Ticks no rule can hide, with why. */
  refused: Array<{ tick: IgnoreTick; reason: string }>;
}

export function planIgnoreRule(params: {
  report: DriftReport;
  rules: readonly PlanRule[];
  ticks: readonly IgnoreTick[];
  /** Whether a manager is a controller: not the target's applier, not a person's tool. */
  isController(manager: string): boolean;
}): IgnorePlan {
  const { report } = params;
  const rules = params.rules.map(copyRule);
  const existing = rules.length;
  const changed = new Set<number>();
  const plan: IgnorePlan = { rules, changed: [], planned: [], covered: [], refused: [] };
  const byKey = new Map(report.resources.map((r) => [keyString(refKey(r)), r]));

  for (const tick of params.ticks) {
    const resource = byKey.get(keyString(refKey(tick)));
    const what = tick.path ? `\`${tick.path}\`` : "the object";
    if (resource?.status === "missing" || resource?.status === "orphaned") {
      const why =
        resource.status === "missing"
          ? "the object is missing from the cluster: that is not a difference of fields, so no ignoreDifferences rule hides it (revert recreates it, codify removes it from Git)"
          : "the object is an orphan (Git no longer declares it): no ignoreDifferences rule hides it (prune deletes it, codify adds it to Git)";
      plan.refused.push({ tick, reason: why });
      continue;
    }
    const changes = (resource?.changes ?? []).filter((c) => !tick.path || within(c.path, tick.path));
    if (changes.length === 0) {
      const rule = coveringRule(rules.slice(0, existing), tick);
      if (rule !== undefined) plan.covered.push({ tick, rule });
      else
        plan.refused.push({
          tick,
          reason: `${what} is not drift in the current scan (it may have been changed back, or the drift is at another path), so there is nothing to ignore`,
        });
      continue;
    }
    const scope = scopeOf(tick, report.resources);
    // One field ticked whose changes one controller made: that controller's fields. Else each pointer.
    const single = tick.path ? soleController(changes, params.isController) : undefined;
    const fields: Array<{ path: string; by: PlannedField["by"]; value: string }> = single
      ? [{ path: tick.path!, by: "manager", value: single }]
      : tick.path
        ? [{ path: tick.path, by: "jsonPointer", value: tick.path }]
        : changes.map((c) => fieldOf(c, params.isController));
    for (const field of fields) {
      const index = ruleFor(rules, scope);
      const list = field.by === "manager" ? "managedFieldsManagers" : "jsonPointers";
      const rule = rules[index]!;
      if (!rule[list].includes(field.value)) {
        rule[list].push(field.value);
        changed.add(index);
      }
      plan.planned.push({ tick, ...field, rule: index });
    }
  }
  plan.changed = [...changed].sort((a, b) => a - b);
  return plan;
}

/** The written shape of a rule: its scope, then only the lists it uses. */
export function writtenRule(rule: PlanRule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["group", "kind", "name", "namespace"] as const) if (rule[key] !== undefined) out[key] = rule[key];
  for (const key of ["jsonPointers", "jqPathExpressions", "managedFieldsManagers"] as const)
    if (rule[key].length > 0) out[key] = [...rule[key]];
  return out;
}

const copyRule = (rule: PlanRule): PlanRule => ({
  ...rule,
  jsonPointers: [...rule.jsonPointers],
  jqPathExpressions: [...rule.jqPathExpressions],
  managedFieldsManagers: [...rule.managedFieldsManagers],
});

/** Whether `path` is `pointer` or lies below it. */
const within = (path: string, pointer: string) => path === pointer || path.startsWith(`${pointer}/`);

function fieldOf(change: Change, isController: (manager: string) => boolean) {
  const manager = change.manager !== undefined && isController(change.manager) ? change.manager : undefined;
  return manager
    ? { path: change.path, by: "manager" as const, value: manager }
    : { path: change.path, by: "jsonPointer" as const, value: change.path };
}

/** The one controller that made all of these changes, if there is one. */
function soleController(changes: Change[], isController: (manager: string) => boolean): string | undefined {
  const managers = new Set(changes.map((c) => c.manager));
  const [manager] = managers;
  return managers.size === 1 && manager !== undefined && isController(manager) ? manager : undefined;
}

type Scope = Pick<PlanRule, "group" | "kind" | "name" | "namespace">;

/** Group, kind and name; the namespace too when the name alone would reach an object of another namespace. */
function scopeOf(tick: IgnoreTick, resources: ResourceReport[]): Scope {
  const group = groupOf(tick.apiVersion);
  const shared = resources.some(
    (r) =>
      groupOf(r.apiVersion) === group &&
      r.kind === tick.kind &&
      r.name === tick.name &&
      (r.namespace ?? "") !== (tick.namespace ?? ""),
  );
  return {
    group,
    kind: tick.kind,
    name: tick.name,
    ...(shared && tick.namespace ? { namespace: tick.namespace } : {}),
  };
}

/** The index of the rule with exactly this scope, added when there is none. */
function ruleFor(rules: PlanRule[], scope: Scope): number {
  const found = rules.findIndex(
    (r) => r.group === scope.group && r.kind === scope.kind && r.name === scope.name && r.namespace === scope.namespace,
  );
  if (found >= 0) return found;
  rules.push({ ...scope, jsonPointers: [], jqPathExpressions: [], managedFieldsManagers: [] });
  return rules.length - 1;
}

/** The first existing rule that already hides a tick no longer in the report: its object in scope and its pointer (or an ancestor) listed. */
function coveringRule(rules: PlanRule[], tick: IgnoreTick): number | undefined {
  const object = {
    apiVersion: tick.apiVersion,
    kind: tick.kind,
    metadata: { name: tick.name, ...(tick.namespace ? { namespace: tick.namespace } : {}) },
  };
  const matching = new Set(rulesFor(rules, object, groupOf(tick.apiVersion)));
  const index = rules.findIndex(
    (r) =>
      matching.has(r) &&
      (tick.path === undefined
        ? r.jsonPointers.length + r.managedFieldsManagers.length + r.jqPathExpressions.length > 0
        : r.jsonPointers.some((p) => within(tick.path!, p))),
  );
  return index >= 0 ? index : undefined;
}
