// What an ignore request asked for that gets no rule, in a few lines: ticks no
// rule can hide (a missing object, a field that is not drift now), and ticks
// an existing rule already hides. For the job's result, the audit stream and
// the pull request.
import { objectLabel } from "../../model/object-label.ts";
import type { IgnorePlan, IgnoreTick } from "../../plan/ignore/plan-ignore-rule.ts";

/** `` `/spec/replicas` of `apps/v1 Deployment shop/web` ``, or the object alone for a whole-object tick. */
export function describeTick(tick: IgnoreTick): string {
  return tick.path ? `\`${tick.path}\` of \`${objectLabel(tick)}\`` : `\`${objectLabel(tick)}\``;
}

export function ignoreRefusals(plan: IgnorePlan): string[] {
  return [
    ...plan.refused.map((r) => `Not ignored: ${describeTick(r.tick)}: ${r.reason}.`),
    ...plan.covered.map((c) => `Already ignored: ${describeTick(c.tick)}, by ignoreDifferences[${c.rule}].`),
  ];
}
