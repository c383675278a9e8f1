// The kustomize check "if editing it does not change the render, it is the
// wrong place": render once with every source-document edit in place; an edit
// whose drift is still there is overridden later (by a patch or a transformer)
// and goes to a patch instead.

import { compareObject } from "../../drift/compare-object.ts";
import { groupOf, keyString, objectKey } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";
import { applyPlans } from "./apply-plans.ts";
import type { Draft, KustomizeContext } from "./kustomize-plan-types.ts";
import type { ObjectPlan, Refusal } from "./object-plan.ts";
import type { TrialRender } from "./trial-render.ts";

export async function checkSourceEdits(params: {
  k: KustomizeContext;
  drafts: Draft[];
  buildPlan: (draft: Draft) => Promise<ObjectPlan | Refusal>;
  trial: TrialRender;
  kustomizations: string[];
}): Promise<void> {
  const { k, drafts, kustomizations } = params;
  const { files } = k.context;
  const plans: ObjectPlan[] = [];
  for (const draft of drafts) {
    const plan = await params.buildPlan(draft);
    if ("ops" in plan) plans.push(plan);
  }
  const paths = new Set([...plans.flatMap((p) => p.ops.map((op) => op.file)), ...kustomizations]);
  const originals = new Map<string, string | undefined>();
  for (const file of paths) originals.set(file, await files.read(file));
  const applied = applyPlans({ plans, originals, kustomizations, inTarget: (f) => files.inTarget(f) });
  let rendered: Map<string, KubeObject> | undefined;
  try {
    const objects = await params.trial.render(applied.files);
    rendered = new Map(objects.map((d) => [keyString(objectKey(d.object)), d.object]));
  } catch {
    // Every source edit moves to a patch; the proof reports the render failure if it persists.
    rendered = undefined;
  }
  for (const draft of drafts) {
    const object = rendered?.get(keyString(objectKey(draft.object)));
    const live = draft.item.pairing.live!;
    const policy = k.context.policy;
    const left = object
      ? new Set(
          compareObject({ desired: object, live, group: groupOf(live.apiVersion), policy }).changes.map((c) => c.path),
        )
      : undefined;
    for (const [edit, route] of draft.routes) {
      if (route === "source" && (!left || left.has(edit.pointer))) draft.routes.set(edit, "new-patch");
    }
  }
}
