// The worker's side of a merged revert pull request (a `scan` job with reason
// `merge`, its revision the merge commit):
//   0. the job's cluster checked against the registry (refused: nothing is read)
//   1. the target resolved once (resolve-merge-target.ts): the snapshot of the
//      merge commit, its config and target, the record file the pull request
//      added (.undrift/revert/<target>.yaml), the cluster's kubeconfig
//   2. a new scan, on Git as merged
//   3. per object: what the record approved and the scan still finds exactly
//      so is applied (apply-approved-drift.ts); changed or new drift is held back
//   4. the orphans the record approved, pruned when the target's `prune` (or
//      the object's rule) is true and every guard of planPrune lets them go;
//      never forced, and each read again before it is deleted
//   5. the health of the applied objects, judged once
//   6. one comment on the pull request (found again by its marker), an audit entry
// A target Flux reconciles (discovered from its Kustomization, not suspended)
// is handed to Flux instead of steps 3-5: the Kustomization is asked to
// reconcile now (discover/request-reconcile.ts), which re-applies Git as Flux
// renders it; applying beside it would be a second writer of its objects. A
// suspended Kustomization reconciles nothing, so undrift applies as for any target.
// A record that is missing or names another cluster applies nothing, and says so.
import { clusterFor } from "../config/cluster-registry.ts";
import type { TargetConfig } from "../config/schema.ts";
import { requestReconcile } from "../discover/request-reconcile.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import { keyString, objectKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import type { ReconcilerRef } from "../model/types.ts";
import { pruneTargetOrphans } from "../modes/prune-target-orphans.ts";
import type { RevertRecord } from "../plan/revert/revert-record.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import { recordHealth } from "../remediate/revert/record-health.ts";
import { driftPeople, type RevertMergeOutcome } from "../report/app/revert-merge-body.ts";
import { type ScanResult, scanResolvedTarget } from "../stages/scan/scan-target.ts";
import { applyApprovedDrift, approvedRevertDrift } from "./apply-approved-drift.ts";
import { attributeScan } from "./attribute-scan.ts";
import { finishRevertMerge, type RevertMergeResult, refusedMerge } from "./finish-revert-merge.ts";
import { resolveMergeTarget } from "./resolve-merge-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export type { RevertMergeResult } from "./finish-revert-merge.ts";

export async function processRevertMerge(params: {
  deps: WorkerDeps;
  job: ScanJob;
  context: ScanContext;
}): Promise<RevertMergeResult> {
  const { deps, job, context } = params;
  const { signal } = context;
  const pullNumber = job.pullRequest;
  const revision = job.revision;
  if (pullNumber === undefined || revision === undefined)
    throw new Error(`merge job of ${job.repo} target ${job.target}: needs pullRequest and revision`);

  // 0. A cluster the registry does not let this repository use is refused before anything is read.
  clusterFor(deps.registry, job.cluster, job.repo);
  const octokit = await deps.probot.auth(job.installationId);
  const finish = (outcome: RevertMergeOutcome) =>
    finishRevertMerge({ deps, job, octokit, pullNumber, revision, outcome });

  // 1. The target, the record and the cluster, resolved once from Git as merged.
  const found = await resolveMergeTarget({ deps, job, octokit, revision });
  if ("refused" in found) return finish(refusedMerge(job, revision, found.refused));
  const { repoDir, config, target, record, kubeConfig } = found.resolved;
  signal.throwIfAborted();

  // 2. The scan, on Git as merged; the snapshot has no .git, so the scan is told the commit it rendered.
  const session = new ClusterSession(kubeConfig);
  const scan = await scanResolvedTarget({ repoDir, config, target, session, revision });
  signal.throwIfAborted();
  // Who made the drift being reverted, from the cluster's records: named in the comment beside each object.
  const people = driftPeople(await attributeScan({ deps, cluster: target.cluster, report: scan.report, job }));

  // 3 (a Flux target). The reconciler asked to re-apply Git; what the record approved is what it puts back.
  const reconciler = target.origin?.from === "flux" && !target.origin.suspended ? target.origin : undefined;
  if (reconciler) return finish(await handToFlux({ session, scan, record, target, reconciler, revision, people }));

  // 3. Only what the record approved and the scan still finds so.
  const deadline = Date.now() + target.timeoutMs;
  const { drift, plan, entries, index } = await applyApprovedDrift({
    scan,
    client: session.client,
    record,
    target,
    deadline,
  });

  // 4. The approved orphans: the target's prune decides, with every guard; the app never forces.
  const pruned = await pruneTargetOrphans({
    client: session.client,
    index,
    target,
    repoDir: scan.repoDir,
    config: scan.config,
    desired: scan.desired.map((d) => d.object),
    skippedDocuments: scan.skipped,
    orphans: plan.orphans.filter((o) => drift.prune.has(keyString(objectKey(o)))),
  });

  // 5. Health, as it stands after the applies.
  const applied = entries.filter((e) => e.applied && !e.record.health);
  await recordHealth({ client: session.client, index, entries: applied, wait: false, deadline });

  // 6. The comment and the audit entry.
  return finish({
    target: target.name,
    cluster: target.cluster,
    revision,
    applied: entries.map((e) => e.record),
    pruned,
    held: drift.held,
    settled: drift.settled.map(objectLabel),
    people,
  });
}

/** Steps 3-5 for a target Flux reconciles: its object asked to reconcile now, nothing applied by undrift. */
async function handToFlux(params: {
  session: ClusterSession;
  scan: ScanResult;
  record: RevertRecord;
  target: TargetConfig;
  reconciler: ReconcilerRef;
  revision: string;
  people: Record<string, string>;
}): Promise<RevertMergeOutcome> {
  const { target, reconciler } = params;
  const drift = approvedRevertDrift(params);
  const asked = await requestReconcile({ session: params.session, ref: reconciler, at: new Date() });
  return {
    target: target.name,
    cluster: target.cluster,
    revision: params.revision,
    applied: [],
    pruned: [],
    held: drift.held,
    settled: drift.settled.map(objectLabel),
    people: params.people,
    handedOff: {
      reconciler: `Flux ${reconciler.kind} ${reconciler.namespace}/${reconciler.name}`,
      ...asked,
      objects: drift.approved.map(objectLabel),
    },
  };
}
