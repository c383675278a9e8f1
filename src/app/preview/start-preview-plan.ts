// Step 4 of requestPreview: the head recorded as the pull request's latest,
// with a plan of the clusters asked; waiting jobs of an older push are removed
// (a running one ends early when it sees the newer head, see process-preview.ts).
import type { PartitionedTargets } from "../../config/partition-targets.ts";
import type { UndriftQueues } from "../../queue/create-queues.ts";
import { previewJobId, removePreviewJobs } from "../../queue/enqueue-preview.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import { failedPreview } from "../../stages/preview/failed-preview.ts";
import type { PreviewPlan, PreviewStore } from "../../state/preview-store.ts";
import type { PreviewRequest } from "./preview-request.ts";

/** Each job's id by cluster: known before the jobs exist, so the plan is in place before any job can read it. */
export async function startPreviewPlan(params: {
  queues: UndriftQueues;
  store: PreviewStore;
  /** The plan of the head asked for before, whose waiting jobs go. */
  previousPlan: PreviewPlan | undefined;
  request: PreviewRequest;
  base: string;
  behindBy: number;
  jobs: PreviewJob[];
  refused: PartitionedTargets["refused"];
}): Promise<Map<string, string>> {
  const { queues, store, previousPlan, request, base, behindBy } = params;
  const { head } = request;
  await store.setLatest(head);
  if (previousPlan) {
    const stale = Object.entries(previousPlan.clusters).map(([cluster, c]) => ({ cluster, jobId: c.jobId }));
    await removePreviewJobs({ queues, jobs: stale });
  }
  const plan: PreviewPlan = {
    base,
    head,
    ...(behindBy > 0 ? { behindBy } : {}),
    clusters: {},
    refused: params.refused.map(({ target, error }) =>
      failedPreview({ target: target.name, cluster: target.cluster, base, head, message: error.message }),
    ),
  };
  const ids = new Map<string, string>();
  for (const job of params.jobs) {
    const id = previewJobId(job, { refresh: request.refresh === true });
    ids.set(job.cluster, id);
    plan.clusters[job.cluster] = { targets: job.targets, jobId: id };
  }
  await store.startPlan(plan);
  return ids;
}
