// The worker's `report` handler: a scan failed for good (or ran out of
// retries), so the repository hears of it where it looks: a failing check run
// `undrift/<target>` on the default branch head with the error's one line,
// masked, and an audit entry. A refusal (a cluster the registry does not
// allow) is reported as such; nothing was read from that cluster. The status
// page shows the target failing, with the same line, and the channels that
// want `failing` hear it (notify-failure.ts).
import { ClusterAccessError } from "../config/cluster-registry.ts";
import { withConditionalGets } from "../github/conditional-gets.ts";
import { defaultBranchHead } from "../github/default-branch-head.ts";
import { postFailureCheck } from "../github/post-failure-check.ts";
import type { ScanJob } from "../queue/jobs.ts";
import { errorSummary } from "../report/error-summary.ts";
import { recordAudit } from "../state/record-audit.ts";
import { redisStore } from "../state/redis-store.ts";
import { statusHistory } from "../state/status-history.ts";
import { notifyFailure } from "./notify/notify-failure.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function reportScanFailure(params: { deps: WorkerDeps; job: ScanJob; error: Error }): Promise<void> {
  const { deps, job, error } = params;
  const { queues } = deps;
  const [owner = "", repo = ""] = job.repo.split("/");
  const store = redisStore({ redis: queues.connection, prefix: queues.prefix });
  const octokit = withConditionalGets({ octokit: await deps.probot.auth(job.installationId), store });
  const head = await defaultBranchHead({ octokit, store, owner, repo });
  const check = await postFailureCheck({ octokit, owner, repo, headSha: head.sha, target: job.target, error });
  const refused = error instanceof ClusterAccessError;
  await statusHistory({ redis: queues.connection, prefix: queues.prefix }).recordFailure({
    installationId: job.installationId,
    repo: job.repo,
    target: job.target,
    cluster: job.cluster,
    message: `${refused ? "refused" : "failed"}: ${errorSummary(error, 400)}`,
  });
  await recordAudit({
    queues,
    log: deps.log,
    entry: {
      event: refused ? "refusal" : "scan-failed",
      repo: job.repo,
      target: job.target,
      cluster: job.cluster,
      revision: head.sha,
      actor: "undrift",
      outcome: `${refused ? "refused" : "failed"}: ${errorSummary(error, 400)}`,
      ...(check.url ? { url: check.url } : {}),
    },
  });
  await notifyFailure({
    deps,
    job,
    message: `${refused ? "refused" : "failed"}: ${errorSummary(error, 400)}`,
    revision: head.sha,
    ...(check.url ? { checkUrl: check.url } : {}),
  });
}
