// Keeps only the plans whose edits prove out. All plans are tried together
// first; those that fail their proof are dropped and the rest tried again.
// When the edited target does not render, or an edit changes an object no
// plan meant to touch, the culprit is found by adding plans one at a time.
import type { ComparePolicy } from "../../drift/compare-object.ts";
import { oneLine } from "../../model/one-line.ts";
import type { DesiredObject } from "../../model/types.ts";
import { applyPlans, type FileTexts } from "./apply-plans.ts";
import { judgeRender } from "./judge-render.ts";
import type { ObjectPlan } from "./object-plan.ts";
import type { TrialRender } from "./trial-render.ts";

export interface Proof {
  kept: ObjectPlan[];
  /** Why each other plan was rolled back, by plan id. */
  failures: Map<string, string>;
  /** The texts with the kept plans applied. */
  files: FileTexts;
}

export interface ProveParams {
  plans: ObjectPlan[];
  originals: ReadonlyMap<string, string | undefined>;
  kustomizations: string[];
  inTarget: (file: string) => boolean;
  trial: TrialRender;
  original: DesiredObject[];
  policy: ComparePolicy;
}

export async function provePlans(params: ProveParams): Promise<Proof> {
  const failures = new Map<string, string>();
  let candidates = params.plans;
  for (;;) {
    const applied = apply(params, candidates);
    for (const [id, reason] of applied.failures) failures.set(id, `the edit could not be made: ${reason}`);
    candidates = candidates.filter((p) => !applied.failures.has(p.id));
    if (candidates.length === 0) return { kept: [], failures, files: new Map(params.originals) };
    const outcome = await renderAndJudge(params, candidates, applied.files);
    if ("error" in outcome || outcome.collateral.length > 0) return oneByOne(params, candidates, failures);
    const failing = candidates.filter((p) => outcome.reasons.has(p.id));
    if (failing.length === 0) return { kept: candidates, failures, files: applied.files };
    for (const plan of failing) failures.set(plan.id, outcome.reasons.get(plan.id)!);
    candidates = candidates.filter((p) => !outcome.reasons.has(p.id));
  }
}

async function oneByOne(params: ProveParams, candidates: ObjectPlan[], failures: Map<string, string>): Promise<Proof> {
  const accepted: ObjectPlan[] = [];
  for (const plan of candidates) {
    const trial = [...accepted, plan];
    const applied = apply(params, trial);
    const failed = applied.failures.get(plan.id);
    if (failed) {
      failures.set(plan.id, `the edit could not be made: ${failed}`);
      continue;
    }
    const outcome = await renderAndJudge(params, trial, applied.files);
    if ("error" in outcome) {
      const reason = `the edited target does not render: ${outcome.error}`;
      failures.set(plan.id, plan.hint ? `${reason}; ${plan.hint}` : reason);
    } else if (outcome.reasons.has(plan.id)) failures.set(plan.id, outcome.reasons.get(plan.id)!);
    else if (outcome.collateral.length > 0)
      failures.set(plan.id, `the edit would also change ${outcome.collateral[0]}`);
    else if (accepted.some((p) => outcome.reasons.has(p.id)))
      failures.set(plan.id, "the edit would undo another object's edit");
    else accepted.push(plan);
  }
  return { kept: accepted, failures, files: apply(params, accepted).files };
}

function apply(params: ProveParams, plans: ObjectPlan[]) {
  return applyPlans({
    plans,
    originals: params.originals,
    kustomizations: params.kustomizations,
    inTarget: params.inTarget,
  });
}

async function renderAndJudge(params: ProveParams, plans: ObjectPlan[], files: FileTexts) {
  let rendered: DesiredObject[];
  try {
    rendered = await params.trial.render(files);
  } catch (error) {
    if (!isRenderFailure(error)) throw error;
    return { error: oneLine((error as Error).message, { fold: "breaks" }) };
  }
  return judgeRender({ plans, rendered, original: params.original, policy: params.policy });
}

// What an edited tree can fail with: its render, or finalize's checks (a duplicate, an unknown kind).
function isRenderFailure(error: unknown): boolean {
  return error instanceof Error && ["RenderError", "DuplicateObjectError", "UnknownKindError"].includes(error.name);
}
