// A pull request closed on `undrift/revert/<target>`:
//   - merged: the config at the merge commit names the target's cluster (the
//     registry must allow it), and one `scan` job with reason `merge` goes to
//     that cluster's queue, carrying the PR number and the merge commit; its
//     worker applies what the record approved (process-revert-merge.ts). The
//     job id is (target, PR), so a redelivered webhook adds nothing, and it is
//     never folded into a waiting scan: a merge is an approval, not a request.
//     A target the config does not name may be one its `discover:` entries find:
//     the web process cannot read the cluster to know, so the job goes to the
//     entry's cluster (with several, the one the name starts with) and the
//     worker resolves the target there, or refuses on the pull request.
//   - closed unmerged: nothing is applied, nothing is queued.
// Branches of forks and other branches are not undrift's.
import type { ProbotOctokit } from "probot";
import { discoveryCluster } from "../config/discovery-target.ts";
import { partitionScheduled } from "../config/partition-targets.ts";
import { driftBranch } from "../github/find-drift-pr.ts";
import { loadRepoConfig } from "../github/load-repo-config.ts";
import { targetKey } from "../model/target-key.ts";
import { parseJob, SCAN_JOB, scanJobSchema } from "../queue/jobs.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { AppDeps } from "./app-deps.ts";

const REVERT_BRANCH = /^undrift\/revert\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;

interface ClosedPullRequest {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  merged: boolean;
  mergeCommitSha: string | null;
  headRef: string;
  /** The repository the head branch lives in: a fork's branch of the same name is not ours. */
  headRepo: string | undefined;
}

/** The merge job's id, or why none was queued. */
export async function handlePullRequestClosed(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  pr: ClosedPullRequest;
}): Promise<{ job?: string; skipped?: string }> {
  const { deps, octokit, log, pr } = params;
  const fullName = `${pr.owner}/${pr.repo}`;
  const target = REVERT_BRANCH.exec(pr.headRef)?.[1];
  if (!target || pr.headRepo?.toLowerCase() !== fullName.toLowerCase()) return { skipped: "not a revert pull request" };
  if (!pr.merged || !pr.mergeCommitSha) {
    log.info(
      { repo: fullName, target, pullRequest: pr.number },
      "revert pull request closed unmerged: nothing applied",
    );
    return { skipped: "closed without merging: nothing is applied" };
  }
  const loaded = await loadRepoConfig({ octokit, owner: pr.owner, repo: pr.repo, ref: pr.mergeCommitSha });
  if (loaded.status !== "valid") return { skipped: "no valid config at the merge commit" };
  const { config } = loaded;
  const allowed = partitionScheduled({ registry: deps.registry, repo: fullName, config }).allowed;
  const configured = new Set(config.targets.map((t) => t.name));
  const discovering = allowed.flatMap((a) => discoveryCluster(a.name) ?? []);
  const found =
    allowed.find((t) => configured.has(t.name) && t.name === target) ??
    discoveredOn(target, discovering, config.discover.length > 1);
  if (found && driftBranch({ target: found.name, mode: "revert" }) !== pr.headRef)
    return { skipped: "not a revert pull request" };
  if (!found) return { skipped: `target ${target} is not in the config, or its cluster is refused` };
  const payload = parseJob(
    scanJobSchema,
    {
      installationId: pr.installationId,
      repo: fullName,
      target: found.name,
      cluster: found.cluster,
      revision: pr.mergeCommitSha,
      reason: "merge",
      pullRequest: pr.number,
    },
    `merge of pull request #${pr.number} of ${fullName}`,
  );
  const added = await deps.queues.scan(found.cluster).add(SCAN_JOB, payload, {
    ...deps.queues.scanJobOptions,
    jobId: `${targetKey(fullName, found.name)}@pr-${pr.number}`,
  });
  return { job: added.id };
}

/** The cluster a discovered target of this name would be on: the only discovering one, or the one it is named after. */
function discoveredOn(
  name: string,
  clusters: readonly string[],
  clusterInName: boolean,
): { name: string; cluster: string } | undefined {
  if (!clusterInName) return clusters.length === 1 ? { name, cluster: clusters[0]! } : undefined;
  const cluster = clusters.filter((c) => name.startsWith(`${c}-`)).sort((a, b) => b.length - a.length)[0];
  return cluster ? { name, cluster } : undefined;
}
