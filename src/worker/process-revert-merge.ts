// The worker's side of a merged revert pull request (a `scan` job with reason
// `merge`, its revision the merge commit):
//   0. the job's cluster checked against the registry (refused: nothing is read)
//   1. the snapshot of the merge commit, its config and target
//   2. the record file the pull request added (.undrift/revert/<target>.yaml)
//   3. a new scan, on Git as merged
//   4. per object: what the record approved and the scan still finds exactly
//      so is applied, through the CLI's revert (planRevert + applyPlan, the
//      plan cut to the approved objects); changed or new drift is held back
//   5. the orphans the record approved, pruned when the target's `prune` (or
//      the object's rule) is true and every guard of planPrune lets them go;
//      never forced, and each read again before it is deleted
//   6. the health of the applied objects, judged once
//   7. one comment on the pull request (found again by its marker), an audit entry
// A record that is missing or names another cluster applies nothing, and says so.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { clusterFor } from "../config/cluster-registry.ts";
import { downloadSnapshot } from "../github/download-snapshot.ts";
import {
  ensureRevertMergeComment,
  type RevertMergeOutcome,
  revertMergeComment,
} from "../github/revert-merge-comment.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { keyString, objectKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import { approvedDrift } from "../plan/approved-drift.ts";
import { modeShares } from "../plan/mode-shares.ts";
import { planRevert } from "../plan/revert/plan-revert.ts";
import { respectedIgnoreRules } from "../plan/revert/respect-ignored.ts";
import { parseRevertRecord, type RevertRecord, revertRecordPath } from "../plan/revert/revert-record.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import { applyPlan } from "../remediate/revert/apply-plan.ts";
import { recordHealth } from "../remediate/revert/record-health.ts";
import { runScan } from "../stages/scan/scan-target.ts";
import { lastValidConfig } from "../state/last-valid-config.ts";
import { recordAudit } from "../state/record-audit.ts";
import { pruneTargetOrphans } from "./prune-target-orphans.ts";
import { readSnapshotConfig } from "./read-snapshot-config.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** What a merge job did, kept as its result: names only, never values. */
export interface RevertMergeResult {
  outcome: "applied" | "refused";
  revision: string;
  pullRequest: number;
  /** `configured <object>`, `deleted <object>`: what was applied or pruned. */
  applied: string[];
  /** Objects held back, and orphans not pruned. */
  skipped: string[];
  actions: string[];
}

export async function processRevertMerge(params: {
  deps: WorkerDeps;
  job: ScanJob;
  context: ScanContext;
}): Promise<RevertMergeResult> {
  const { deps, job, context } = params;
  const { queues, log } = deps;
  const { signal } = context;
  const [owner = "", repo = ""] = job.repo.split("/");
  const pullNumber = job.pullRequest;
  const revision = job.revision;
  if (pullNumber === undefined || revision === undefined)
    throw new Error(`merge job of ${job.repo} target ${job.target}: needs pullRequest and revision`);

  // 0. A cluster the registry does not let this repository use is refused before anything is read.
  clusterFor(deps.registry, job.cluster, job.repo);
  const octokit = await deps.probot.auth(job.installationId);
  const finish = async (outcome: RevertMergeOutcome): Promise<RevertMergeResult> => {
    const comment = await ensureRevertMergeComment({
      octokit,
      owner,
      repo,
      pullNumber,
      target: job.target,
      body: revertMergeComment(outcome),
    });
    const deleted = outcome.pruned.filter((r) => r.action === "deleted");
    const applied = [...outcome.applied, ...deleted].map((r) => `${r.action} ${objectLabel(r)}`);
    const skipped = [
      ...outcome.held.map((h) => objectLabel(h.object)),
      ...outcome.pruned.filter((r) => r.action !== "deleted").map(objectLabel),
    ];
    await recordAudit({
      queues,
      log,
      entry: {
        repo: job.repo,
        target: job.target,
        actor: "undrift",
        event: outcome.refused ? "revert-refused" : "revert-applied",
        cluster: job.cluster,
        revision,
        outcome: outcome.refused ?? `pull request #${pullNumber}: ${applied.length} applied, ${skipped.length} skipped`,
        objects: [...applied, ...skipped],
        ...(comment.url ? { url: comment.url } : {}),
      },
    });
    return {
      outcome: outcome.refused ? "refused" : "applied",
      revision,
      pullRequest: pullNumber,
      applied,
      skipped,
      actions: comment.action === "unchanged" ? [] : [`${comment.action} comment on pull request #${pullNumber}`],
    };
  };
  const refuse = (why: string) =>
    finish({
      target: job.target,
      cluster: job.cluster,
      revision,
      applied: [],
      pruned: [],
      held: [],
      settled: [],
      refused: why,
    });

  // 1. Git as merged: its config and the target.
  const snapshot = await downloadSnapshot({ octokit, owner, repo, sha: revision, cacheDir: deps.snapshotDir });
  const read = await readSnapshotConfig({
    dir: snapshot.dir,
    octokit,
    owner,
    repo,
    sha: revision,
    lastValid: () => lastValidConfig({ redis: queues.connection, prefix: queues.prefix }).get(job.repo),
  });
  if (!read || read.invalid)
    return refuse("the config (`.github/undrift.yml` or `.yaml`) at the merge commit is missing or invalid.");
  const target = read.config.targets.find((t) => t.name === job.target);
  if (!target) return refuse("the target is no longer in the repository's config.");
  if (target.cluster !== job.cluster)
    return refuse(`the target now names cluster \`${target.cluster}\`, not the one the record was made for.`);

  // 2. The record the pull request added.
  const file = revertRecordPath(target.name);
  let record: RevertRecord;
  try {
    record = parseRevertRecord({ text: await readFile(join(snapshot.dir, file), "utf8"), file });
  } catch (error) {
    return refuse(`the record \`${file}\` could not be read at the merge commit: ${(error as Error).message}`);
  }
  if (record.target !== target.name || record.cluster !== target.cluster)
    return refuse(`the record \`${file}\` is for target \`${record.target}\` on cluster \`${record.cluster}\`.`);
  signal.throwIfAborted();

  // 3. The scan, on Git as merged.
  const entry = clusterFor(deps.registry, target.cluster, job.repo);
  const kubeConfig = loadKubeconfig(entry);
  // The snapshot has no .git: the scan is told the commit it rendered.
  const scan = await runScan({
    repoDir: snapshot.dir,
    targetName: target.name,
    kubeConfig,
    config: read.config,
    revision,
  });
  signal.throwIfAborted();

  // 4. Only what the record approved and the scan still finds so; objects rules give another mode are not revert's.
  const share = modeShares(scan).find((s) => s.mode === "revert")?.scan ?? scan;
  const drift = approvedDrift({ record, report: share.report, cluster: target.cluster });
  const plan = planRevert({ desired: scan.desired, pairings: scan.pairings });
  const objects = plan.objects.filter(
    (p) =>
      (p.status === "drifted" || p.status === "missing") && drift.apply.has(keyString(objectKey(p.desired.object))),
  );
  const deadline = Date.now() + target.timeoutMs;
  const { entries, index } = await applyPlan({
    client: scan.client,
    index: scan.index,
    objects,
    fieldManager: target.fieldManager,
    force: target.force,
    isHuman: (manager) => scan.policy.isHuman(manager),
    dryRun: false,
    wait: "dependencies",
    ignoreRules: respectedIgnoreRules(target),
    jq: scan.policy.jq,
    deadline,
  });

  // 5. The approved orphans: the target's prune decides, with every guard; the app never forces.
  const pruned = await pruneTargetOrphans({
    client: scan.client,
    index,
    target,
    desired: scan.desired.map((d) => d.object),
    skippedDocuments: scan.skipped,
    orphans: plan.orphans.filter((o) => drift.prune.has(keyString(objectKey(o)))),
  });

  // 6. Health, as it stands after the applies.
  const applied = entries.filter((e) => e.applied && !e.record.health);
  await recordHealth({ client: scan.client, index, entries: applied, wait: false, deadline });

  // 7. The comment and the audit entry.
  return finish({
    target: target.name,
    cluster: target.cluster,
    revision,
    applied: entries.map((e) => e.record),
    pruned,
    held: drift.held,
    settled: drift.settled.map(objectLabel),
  });
}
