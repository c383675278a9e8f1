// undrift codify for one target, the pipeline the CLI (and later the app) runs:
//   1. scan the target (desired objects, live objects, their drift)
//   2. set aside what is not codified: objects being deleted, Secrets, helm output
//   3. plan file edits per object (plain: its document; kustomize: source, patch or images)
//   4. apply the plans to in-memory texts and prove them by rendering again
//   5. keep what proved out, report the rest with why
// Nothing is written here: the result carries the texts for the caller to write or diff.

import { realpath } from "node:fs/promises";
import { join } from "node:path";
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { trackingLabel } from "../../config/tracking-label.ts";
import type { Scope } from "../../desired/finalize-desired.ts";
import type { PostBuildVariables } from "../../desired/post-build/substitute-objects.ts";
import type { Renderer } from "../../desired/render-target.ts";
import { repoPath } from "../../desired/repo-path.ts";
import { findingOf, type Pairing } from "../../drift/build-report.ts";
import type { ComparePolicy } from "../../drift/compare-object.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { DesiredObject, DriftStatus, ScanProblem } from "../../model/types.ts";
import { notCodifiable } from "../../plan/not-codifiable.ts";
import type { CodifyContext } from "../../remediate/codify/codify-context.ts";
import type {
  CodifiedObject,
  CodifyResult,
  FileChange,
  NotCodifiedObject,
} from "../../remediate/codify/codify-result.ts";
import { kustomizationFiles } from "../../remediate/codify/kustomization-files.ts";
import type { ObjectPlan, Refusal } from "../../remediate/codify/object-plan.ts";
import { planBase } from "../../remediate/codify/plan-base.ts";
import { planKustomize } from "../../remediate/codify/plan-kustomize.ts";
import { planPlain } from "../../remediate/codify/plan-plain.ts";
import { provePlans } from "../../remediate/codify/prove-plans.ts";
import { RepoFiles } from "../../remediate/codify/repo-files.ts";
import { createTrialRender } from "../../remediate/codify/trial-render.ts";
import { scanResolvedTarget } from "../scan/scan-target.ts";

/** Codifies one target, resolved by the caller from `config`, on the session of its cluster. */
export async function codifyTarget(params: {
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  session: ClusterSession;
}): Promise<CodifyResult> {
  const repoDir = await realpath(params.repoDir);
  const scan = await scanResolvedTarget({ ...params, repoDir });
  return codifyScan({
    repoDir,
    target: scan.target,
    desired: scan.desired,
    pairings: scan.pairings,
    problems: scan.report.problems,
    policy: scan.policy,
    renderer: scan.renderer,
    scopeOf: (apiVersion, kind) => scan.index.scopeOf(apiVersion, kind),
    variables: scan.variables,
  });
}

export interface CodifyScanParams {
  /** The working tree, as a real path (sources are relative to it). */
  repoDir: string;
  target: TargetConfig;
  desired: DesiredObject[];
  pairings: Pairing[];
  problems: ScanProblem[];
  policy: ComparePolicy;
  /** The renderer the scan used (auto resolved). */
  renderer: Renderer;
  scopeOf: (apiVersion: string, kind: string) => Scope | undefined;
  /** The post-build variables the scan rendered a Flux target with: its trial renders need the same. */
  variables?: PostBuildVariables | undefined;
}

/** Codifies the drift a scan found; steps 2 to 5 of the pipeline. */
export async function codifyScan(params: CodifyScanParams): Promise<CodifyResult> {
  const { repoDir, target } = params;
  const targetPath = repoPath({ repoDir, abs: join(repoDir, target.path) }) ?? target.path;
  const { renderer } = params;
  const files = new RepoFiles({ repoDir, targetPath });
  const context: CodifyContext = {
    target,
    files,
    policy: params.policy,
    trackingLabel: trackingLabel(target),
    desired: params.desired,
    created: new Set(),
  };

  // 2. What is not codified, whatever the plan would be.
  const { outcomes, todo } = triage(params.pairings, renderer);

  if (todo.length === 0) return resultOf({ params, outcomes, kept: new Map(), changes: [] });
  const trial = await createTrialRender({
    repoDir,
    target,
    trackingLabel: context.trackingLabel,
    scopeOf: params.scopeOf,
    variables: params.variables,
  });
  try {
    // 3. Plans.
    const kustomizations = renderer === "kustomize" ? await kustomizationFiles({ repoDir, dir: targetPath }) : [];
    const planned: Array<ObjectPlan | Refusal> = [];
    // A Flux Kustomization's folder without a kustomization of its own (Flux generates one listing its files) is
    // edited as plain YAML; the trial render, which puts the Kustomization's overlays on, proves every edit.
    if (renderer === "kustomize" && kustomizations.length > 0)
      planned.push(...(await planKustomize({ items: todo, context, trial, kustomizations })));
    // One at a time: new file names are claimed in order.
    else for (const item of todo) planned.push(await planPlain({ ...item, context }));
    for (const [i, item] of todo.entries()) outcomes.set(item.pairing, planned[i]!);
    const plans = planned.filter((p): p is ObjectPlan => "ops" in p);

    // 4. Apply and prove.
    const paths = new Set([...plans.flatMap((p) => p.ops.map((op) => op.file)), ...kustomizations]);
    const originals = new Map<string, string | undefined>();
    for (const file of paths) originals.set(file, await files.read(file));
    const proof = await provePlans({
      plans,
      originals,
      kustomizations,
      inTarget: (file) => files.inTarget(file),
      trial,
      original: params.desired,
      policy: params.policy,
    });

    // 5. The result, in the scan's order.
    const kept = new Map<string, ObjectPlan | Refusal>(proof.kept.map((plan) => [plan.id, plan]));
    for (const [id, reason] of proof.failures) kept.set(id, { reason });
    return resultOf({ params, outcomes, kept, changes: changesOf(originals, proof.files) });
  } finally {
    await trial.dispose();
  }
}

/** The drifted, missing and orphaned objects to plan, and the refusals no plan could change (notCodifiable). */
function triage(pairings: Pairing[], renderer: CodifyScanParams["renderer"]) {
  const outcomes = new Map<Pairing, ObjectPlan | Refusal>();
  const todo: Array<{ pairing: Pairing; status: DriftStatus }> = [];
  for (const pairing of pairings) {
    const status = statusOf(pairing);
    if (!status) continue;
    const reason = notCodifiable({
      object: (pairing.desired?.object ?? pairing.live)!,
      ...(pairing.live ? { live: pairing.live } : {}),
      renderer,
      sensitive: (pairing.desired?.sensitive?.length ?? 0) > 0,
    });
    if (reason) outcomes.set(pairing, { reason });
    else todo.push({ pairing, status });
  }
  return { outcomes, todo };
}

/** Codified and not codified objects in the scan's order; `kept` holds each plan's fate after the proof, by id. */
function resultOf(params: {
  params: CodifyScanParams;
  outcomes: Map<Pairing, ObjectPlan | Refusal>;
  kept: Map<string, ObjectPlan | Refusal>;
  changes: FileChange[];
}): CodifyResult {
  const codified: CodifiedObject[] = [];
  const notCodified: NotCodifiedObject[] = [];
  for (const pairing of params.params.pairings) {
    const planned = params.outcomes.get(pairing);
    if (!planned) continue;
    const outcome = "ops" in planned ? (params.kept.get(planned.id) ?? planned) : planned;
    const ref = planBase(pairing, statusOf(pairing)!).ref;
    const touched = "ops" in outcome ? [...new Set(outcome.ops.map((op) => op.file))] : [];
    if ("reason" in outcome) notCodified.push({ ...ref, reason: outcome.reason });
    else if (touched.length === 0) notCodified.push({ ...ref, reason: "no edit of Git was found for its drift" });
    else codified.push({ ...ref, status: outcome.status, file: touched[0]!, files: touched });
  }
  const { target, problems } = params.params;
  return { target: target.name, files: params.changes, codified, notCodified, problems };
}

/** The pairing's finding when it is drift; in-sync objects are nothing to codify. */
function statusOf(pairing: Pairing): DriftStatus | undefined {
  const status = findingOf(pairing);
  return status === "in-sync" ? undefined : status;
}

function changesOf(originals: ReadonlyMap<string, string | undefined>, files: ReadonlyMap<string, string | undefined>) {
  const changes: FileChange[] = [];
  for (const [file, after] of files) {
    const before = originals.get(file);
    if (before === after) continue;
    changes.push({ file, ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) });
  }
  return changes.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
