// The worker's `report` handler for previews: a preview job failed for good
// (a refused cluster, an error that is not transient) or ran out of retries
// (a cluster unreachable all along). Its targets become failed rows, with the
// error's one line, masked, so the comment and the check say why they are
// missing while the other clusters' previews still show. The targets are the
// ones the job found changed when it got that far, else all it was asked for.
import { ClusterAccessError } from "../../config/cluster-registry.ts";
import { withConditionalGets } from "../../github/conditional-gets.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import { errorSummary } from "../../report/error-summary.ts";
import { failedPreview } from "../../stages/preview/failed-preview.ts";
import { previewStore } from "../../state/preview-store.ts";
import { recordAudit } from "../../state/record-audit.ts";
import { redisStore } from "../../state/redis-store.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { composePreview } from "./compose-preview.ts";

export async function reportPreviewFailure(params: { deps: WorkerDeps; job: PreviewJob; error: Error }): Promise<void> {
  const { deps, job, error } = params;
  const { queues } = deps;
  const store = previewStore({
    redis: queues.connection,
    prefix: queues.prefix,
    repo: job.repo,
    number: job.pullRequest,
  });
  // A newer push has its own jobs; nobody looks at this head any more.
  if ((await store.latest()) !== job.head) return;
  const refused = error instanceof ClusterAccessError;
  // The renderer says "Could not preview"; the message says why, in one masked line.
  const message = errorSummary(error, 400);
  const targets = (await store.changed(job.head, job.cluster)) ?? job.targets;
  const previews = targets.map((target) =>
    failedPreview({ target, cluster: job.cluster, base: job.base, head: job.head, message }),
  );
  await store.saveResult(job.head, job.cluster, { previews, unchanged: [] });
  const etags = redisStore({ redis: queues.connection, prefix: queues.prefix });
  const octokit = withConditionalGets({ octokit: await deps.probot.auth(job.installationId), store: etags });
  await composePreview({ queues, log: deps.log, octokit, repo: job.repo, number: job.pullRequest, head: job.head });
  await recordAudit({
    queues,
    log: deps.log,
    entry: {
      event: refused ? "refusal" : "preview-failed",
      repo: job.repo,
      cluster: job.cluster,
      revision: job.head,
      actor: "undrift",
      outcome: `#${job.pullRequest}: ${message}`,
    },
  });
}
