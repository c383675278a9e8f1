// Step 5 of processPreview: the cluster's reports stored under the head, then
// the comment and the check composed from every cluster's results so far
// (compose-preview.ts), with conditional reads so an unchanged comment costs
// no rate limit.
import type { ProbotOctokit } from "probot";
import { withConditionalGets } from "../../github/conditional-gets.ts";
import type { PreviewReport } from "../../model/preview-report.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import type { PreviewStore } from "../../state/preview-store.ts";
import { redisStore } from "../../state/redis-store.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { type ComposeOutcome, composePreview } from "./compose-preview.ts";

export async function publishClusterPreview(params: {
  deps: WorkerDeps;
  job: PreviewJob;
  octokit: ProbotOctokit;
  store: PreviewStore;
  previews: PreviewReport[];
  unchanged: string[];
}): Promise<ComposeOutcome> {
  const { deps, job, octokit, store, previews, unchanged } = params;
  const { queues } = deps;
  await store.saveResult(job.head, job.cluster, { previews, unchanged });
  const reads = withConditionalGets({
    octokit,
    store: redisStore({ redis: queues.connection, prefix: queues.prefix }),
  });
  return composePreview({
    queues,
    log: deps.log,
    octokit: reads,
    repo: job.repo,
    number: job.pullRequest,
    head: job.head,
  });
}
