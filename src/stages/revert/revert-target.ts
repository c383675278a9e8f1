// `undrift revert`: the cluster follows Git, as a numbered pipeline:
//   1. scan the target: drifted, missing, in-sync and orphaned objects, with the live state;
//   2. plan: drifted and missing objects in dependency order, in-sync ones untouched;
//   3. apply stage by stage, people's hand-made fields taken over first, waiting for
//      what later stages need (CRDs Established and served, Namespaces Active);
//   4. prune the orphans the guards allow (never one another target of the repository declares);
//   5. a health pass over the objects;
//   6. the records and their counts.
// With dryRun every write is its server-side dry-run twin and the records are the same.
//
// Waiting for health (`wait`): a revert applies what Git says, and a Deployment that
// cannot roll out (no nodes, a bad image) is news, not a reason to hold the command
// or call the apply failed. So by default it waits only for what the later applies
// need (CRDs and Namespaces), and reports every other object's health once, as it
// stands after the applies. `all` waits for every applied object, bounded by the
// target's timeout, and then a timeout or failure makes the revert incomplete; `none`
// waits only where order demands it (a CRD whose custom resources follow).
//
// Interrupted (`signal`, Ctrl-C in the CLI): the applies in flight finish, the
// rest are skipped, nothing is pruned, every wait ends with the objects it was on
// recorded as interrupted, and the result says so: the records are what was done.
// `onProgress` hears each step as it goes, for a front end to show.

import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { comparePolicy } from "../../drift/compare-policy.ts";
import { loadJq } from "../../drift/jq.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { PropagationPolicy } from "../../live/delete-object.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { type Action, actions, type ObjectRecord, type RevertResult, type WaitMode } from "../../model/change-set.ts";
import type { OnProgress } from "../../model/progress.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import { noOtherTargets } from "../../plan/prune/other-targets.ts";
import { planPrune } from "../../plan/prune/plan-prune.ts";
import { planRevert } from "../../plan/revert/plan-revert.ts";
import { respectedIgnoreRules } from "../../plan/revert/respect-ignored.ts";
import { checkHealth } from "../../remediate/health/check-health.ts";
import { pruneOrphans } from "../../remediate/prune/prune-orphans.ts";
import { applyPlan } from "../../remediate/revert/apply-plan.ts";
import { recordHealth } from "../../remediate/revert/record-health.ts";
import { otherTargetsOf } from "../scan/other-targets-of.ts";
import { scanResolvedTarget } from "../scan/scan-target.ts";

export interface RevertParams {
  repoDir: string;
  /** The target, resolved by the caller from `config`, and the session of its cluster. */
  config: RepoConfig;
  target: TargetConfig;
  session: ClusterSession;
  prune: boolean;
  forcePrune: boolean;
  dryRun: boolean;
  propagationPolicy: PropagationPolicy;
  wait: WaitMode;
  /** Stops the revert early, keeping the records of what was done (see above). */
  signal?: AbortSignal;
  onProgress?: OnProgress;
}

export async function revertTarget(params: RevertParams): Promise<RevertResult> {
  const started = performance.now();
  const { dryRun, signal, onProgress } = params;
  const hooks = { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) };

  // 1. Scan.
  onProgress?.({ step: "scan", target: params.target.name });
  const { repoDir, config, session } = params;
  const scan = await scanResolvedTarget({ repoDir, config, target: params.target, session, started });
  const { target } = scan;
  const { client } = session;
  const { isHuman } = comparePolicy(target, await loadJq());

  // 2. Plan.
  const plan = planRevert({ desired: scan.desired, pairings: scan.pairings });

  // 3. Apply. One deadline bounds every wait of the run, as a target's timeout bounds Flux's.
  const deadline = Date.now() + target.timeoutMs;
  const { entries, index } = await applyPlan({
    client,
    index: scan.index,
    objects: plan.objects,
    fieldManager: target.fieldManager,
    force: target.force,
    isHuman,
    dryRun,
    wait: params.wait,
    deadline,
    ignoreRules: respectedIgnoreRules(target),
    jq: scan.policy.jq,
    // A cluster lost mid-way: each object says whether it was applied, and the exit code says the revert is incomplete.
    recordUnreachable: true,
    ...hooks,
  });

  // 4. Prune. The other targets are rendered only when something could be pruned.
  const otherTargets =
    params.prune && plan.orphans.length > 0
      ? await otherTargetsOf({ repoDir: params.repoDir, config: scan.config, target, index: scan.index })
      : noOtherTargets;
  const prune = planPrune({
    orphans: plan.orphans,
    desired: scan.desired.map((d) => d.object),
    selector: target.tracking.selector,
    requested: params.prune,
    force: params.forcePrune,
    maxPrunePercent: target.maxPrunePercent,
    rules: target.rules,
    skippedDocuments: scan.skipped,
    otherTargets,
  });
  if (prune.deletions.length > 0 && !signal?.aborted)
    onProgress?.({ step: "prune", total: prune.deletions.length, dryRun });
  const deleted = signal?.aborted
    ? prune.deletions.map(notDeleted)
    : await pruneOrphans({
        client,
        index,
        deletions: prune.deletions,
        propagationPolicy: params.propagationPolicy,
        dryRun,
      });

  // 5. Health: nothing to judge after a dry run, which left the cluster as it was.
  if (!dryRun) await judgeHealth({ client, index, entries, wait: params.wait === "all", deadline, ...hooks });

  // 6. The records, applied, pruned and held back, with their counts.
  return revertResult({
    target: target.name,
    revision: scan.report.revision,
    dryRun,
    wait: params.wait,
    resources: [...entries.map((e) => e.record), ...deleted, ...prune.deleting, ...prune.skipped],
    problems: scan.report.problems,
    stats: { requests: client.requests, durationMs: Math.round(performance.now() - started) },
    ...(signal?.aborted ? { interrupted: true as const } : {}),
  });
}

/** An orphan the plan would delete, left because the revert was interrupted first. */
function notDeleted(object: KubeObject): ObjectRecord {
  return { ...refOf(object), action: "skipped", reason: "interrupted before it was deleted" };
}

type ApplyEntries = Awaited<ReturnType<typeof applyPlan>>["entries"];

/** Reads back what was applied (waiting when asked); in-sync objects were read by the scan moments ago, judged as read. */
async function judgeHealth(params: {
  client: KubeClient;
  index: ResourceIndex;
  entries: ApplyEntries;
  wait: boolean;
  deadline: number;
  signal?: AbortSignal;
  onProgress?: OnProgress;
}): Promise<void> {
  const { entries } = params;
  const applied = entries.filter((e) => e.applied && !e.record.health);
  await recordHealth({ ...params, entries: applied });
  for (const e of entries) {
    if (e.record.action === "unchanged" && e.planned.live)
      e.record.health = { ...checkHealth(e.planned.live), waited: false };
  }
}

function revertResult(result: Omit<RevertResult, "summary">): RevertResult {
  const summary = Object.fromEntries(actions.map((a) => [a, 0])) as Record<Action, number>;
  for (const r of result.resources) summary[r.action]++;
  const { target, revision, dryRun, wait, resources, problems, stats, interrupted } = result;
  return {
    target,
    revision,
    dryRun,
    wait,
    summary,
    resources,
    problems,
    stats,
    ...(interrupted ? { interrupted } : {}),
  };
}
