// Asks for the preview of a pull request's head (a pull_request event, or
// `/undrift preview` from a writer). The web side only decides what to ask;
// the workers render and read the clusters:
//   1. the config at the head commit (absent: nothing; invalid: the failing
//      `undrift/config` check on the head, which names file, line and field);
//   2. the merge base of base and head (compare): what the pull request changes,
//      as "Files changed" shows it, whatever landed on the base branch since
//      (the comment says how many commits head is behind, see preview-overview.ts);
//   3. the targets split by the cluster registry: a refused target becomes a
//      failed row (nothing is read from its cluster), the rest are grouped by cluster;
//   4. the head recorded as the pull request's latest, with a plan of the
//      clusters asked; waiting jobs of an older push are removed (a running one
//      ends early when it sees the newer head, see process-preview.ts);
//   5. one `preview` job per cluster in its scan queue (enqueue-preview.ts).
// With only refused targets there is no job: the refusal is written at once.
// A webhook redelivered for a head already asked for changes nothing, unless a
// job of that head failed: then the head is previewed again under fresh job
// ids, as `/undrift preview` does, so a failed preview never blocks a later
// delivery (a redelivery, `reopened`, `ready_for_review`) of its head.
import type { ProbotOctokit } from "probot";
import { compareMergeBase } from "../../github/compare-merge-base.ts";
import { enqueuePreview, failedPreviewJobs } from "../../queue/enqueue-preview.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import { previewStore } from "../../state/preview-store.ts";
import { composePreview } from "../../worker/preview/compose-preview.ts";
import type { AppDeps } from "../app-deps.ts";
import { loadPreviewConfig } from "./load-preview-config.ts";
import { previewJobs } from "./preview-jobs.ts";
import type { PreviewRequest } from "./preview-request.ts";
import { startPreviewPlan } from "./start-preview-plan.ts";

/** The preview jobs queued, or why none was. */
export async function requestPreview(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  request: PreviewRequest;
}): Promise<{ jobs: string[]; skipped?: string }> {
  const { deps, octokit, log } = params;
  const { owner, repo, number, head } = params.request;
  const fullName = `${owner}/${repo}`;
  const { queues } = deps;
  const store = previewStore({ redis: queues.connection, prefix: queues.prefix, repo: fullName, number });

  // A redelivered event (or `reopened` on the same head): the plan stands, and so do its jobs' results,
  // unless a job failed: BullMQ would add nothing under its id again, so the head is asked again afresh.
  const previousHead = await store.latest();
  const previousPlan = previousHead ? await store.plan(previousHead) : undefined;
  let request = params.request;
  if (previousHead === head && previousPlan && !request.refresh) {
    const planned = Object.entries(previousPlan.clusters).map(([cluster, c]) => ({ cluster, jobId: c.jobId }));
    const answered = new Set((await store.results(head)).keys());
    const failed = await failedPreviewJobs({ queues, jobs: planned, answered });
    if (failed.length === 0) return { jobs: planned.map((c) => c.jobId), skipped: "this head is already previewed" };
    log.info({ repo: fullName, pullRequest: number, head, failed }, "this head's preview failed: asking it again");
    request = { ...request, refresh: true };
  }
  // 1. The config at the head.
  const loaded = await loadPreviewConfig({ octokit, request });
  if ("skipped" in loaded) return { jobs: [], skipped: loaded.skipped };
  // 2. The merge base.
  const { base, behindBy } = await compareMergeBase({ octokit, owner, repo, baseSha: request.baseSha, head });
  // 3. Targets by cluster, refused ones as failed rows.
  const { jobs, refused } = previewJobs({ registry: deps.registry, request, base, targets: loaded.config.targets });
  // 4. The latest head and its plan; stale jobs go.
  const ids = await startPreviewPlan({ queues, store, previousPlan, request, base, behindBy, jobs, refused });
  // 5. The jobs.
  for (const job of jobs) {
    await enqueuePreview({ queues, job, jobId: ids.get(job.cluster) ?? "" });
  }
  log.info({ repo: fullName, pullRequest: number, head, jobs: [...ids.values()] }, "preview queued");
  if (jobs.length === 0) {
    await composePreview({ queues, log, octokit, repo: fullName, number, head });
  }
  return { jobs: [...ids.values()] };
}
