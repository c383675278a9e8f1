// Step 3 of syncRepoSchedulers, for the targets whose cluster the registry
// refuses: a failing `undrift/<target>` check run on the head, which says why,
// and an audit entry each. They get no scheduler. A `discover:` entry refused
// is said the same way, as `undrift/discover@<cluster>`.
import type { PartitionedTargets, ScheduledName } from "../config/partition-targets.ts";
import type { GitHubClient } from "../github/github-client.ts";
import { postFailureCheck } from "../github/post-failure-check.ts";
import type { RepoAudit } from "./repo-audit.ts";

export async function postRefusals(params: {
  octokit: GitHubClient;
  owner: string;
  repo: string;
  headSha: string;
  refused: PartitionedTargets<ScheduledName>["refused"];
  audit: RepoAudit;
}): Promise<void> {
  const { octokit, owner, repo, headSha, audit } = params;
  for (const { target, error } of params.refused) {
    const check = await postFailureCheck({ octokit, owner, repo, headSha, target: target.name, error });
    await audit({
      event: "refusal",
      target: target.name,
      cluster: target.cluster,
      revision: headSha,
      outcome: `refused: ${error.message}`,
      ...(check.url ? { url: check.url } : {}),
    });
  }
}
