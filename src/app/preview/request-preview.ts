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
// A webhook redelivered for a head already asked for changes nothing.
import type { ProbotOctokit } from "probot";
import { partitionTargets } from "../../config/partition-targets.ts";
import { githubStep } from "../../github/github-errors.ts";
import { loadRepoConfig } from "../../github/load-repo-config.ts";
import { postConfigCheck } from "../../github/post-config-check.ts";
import { enqueuePreview, previewJobId, removePreviewJobs } from "../../queue/enqueue-preview.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import { failedPreview } from "../../stages/preview/failed-preview.ts";
import { type PreviewPlan, previewStore } from "../../state/preview-store.ts";
import { composePreview } from "../../worker/preview/compose-preview.ts";
import type { AppDeps } from "../app-deps.ts";

export interface PreviewRequest {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  /** The pull request's head commit. */
  head: string;
  /** The base branch's commit the event names. */
  baseSha: string;
  reason: PreviewJob["reason"];
  /** Run again even when this head was already asked for. */
  refresh?: boolean;
}

/** The preview jobs queued, or why none was. */
export async function requestPreview(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  request: PreviewRequest;
}): Promise<{ jobs: string[]; skipped?: string }> {
  const { deps, octokit, log, request } = params;
  const { owner, repo, number, head } = request;
  const fullName = `${owner}/${repo}`;
  const { queues } = deps;
  const store = previewStore({ redis: queues.connection, prefix: queues.prefix, repo: fullName, number });

  // A redelivered event (or `reopened` on the same head): the plan stands, and so do its jobs' results.
  const previousHead = await store.latest();
  const previousPlan = previousHead ? await store.plan(previousHead) : undefined;
  if (previousHead === head && previousPlan && !request.refresh) {
    return {
      jobs: Object.values(previousPlan.clusters).map((c) => c.jobId),
      skipped: "this head is already previewed",
    };
  }

  // 1. The config at the head.
  const loaded = await loadRepoConfig({ octokit, owner, repo, ref: head });
  if (loaded.status === "absent") return { jobs: [], skipped: "no .github/undrift.yml at the head" };
  if (loaded.status === "invalid") {
    await postConfigCheck({ octokit, owner, repo, headSha: head, error: loaded.error });
    return { jobs: [], skipped: `invalid config at the head: ${loaded.error.message}` };
  }
  const { config } = loaded;
  if (config.targets.length === 0) return { jobs: [], skipped: "the config has no targets" };

  // 2. The merge base.
  const { base, behindBy } = await githubStep({
    repo: { owner, repo },
    step: `compare ${request.baseSha.slice(0, 7)}...${head.slice(0, 7)}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
        owner,
        repo,
        basehead: `${request.baseSha}...${head}`,
        per_page: 1,
      });
      return { base: data.merge_base_commit.sha, behindBy: data.behind_by };
    },
  });

  // 3. Targets by cluster, refused ones as failed rows.
  const { allowed, refused } = partitionTargets({ registry: deps.registry, repo: fullName, targets: config.targets });
  const byCluster = new Map<string, string[]>();
  for (const target of allowed) byCluster.set(target.cluster, [...(byCluster.get(target.cluster) ?? []), target.name]);
  const jobs = [...byCluster].map(
    ([cluster, targets]): PreviewJob => ({
      installationId: request.installationId,
      repo: fullName,
      cluster,
      pullRequest: number,
      head,
      base,
      targets,
      reason: request.reason,
    }),
  );

  // 4. The latest head and its plan; stale jobs go.
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
    refused: refused.map(({ target, error }) =>
      failedPreview({ target: target.name, cluster: target.cluster, base, head, message: error.message }),
    ),
  };
  // Ids are known before the jobs exist, so the plan is in place before any job can read it.
  const ids = new Map<string, string>();
  for (const job of jobs) {
    const id = previewJobId(job, { refresh: request.refresh === true });
    ids.set(job.cluster, id);
    plan.clusters[job.cluster] = { targets: job.targets, jobId: id };
  }
  await store.startPlan(plan);

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
