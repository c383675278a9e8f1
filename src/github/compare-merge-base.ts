// Where a pull request's head left its base branch (GitHub's compare): what
// the pull request changes is measured from there, as "Files changed" shows
// it, whatever landed on the base branch since.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** The merge base of `baseSha` and `head`, and how many commits head is behind the base. */
export async function compareMergeBase(
  params: RepoRef & { octokit: GitHubClient; baseSha: string; head: string },
): Promise<{ base: string; behindBy: number }> {
  const { octokit, owner, repo, baseSha, head } = params;
  return githubStep({
    repo: { owner, repo },
    step: `compare ${baseSha.slice(0, 7)}...${head.slice(0, 7)}`,
    run: async () => {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
        owner,
        repo,
        basehead: `${baseSha}...${head}`,
        per_page: 1,
      });
      return { base: data.merge_base_commit.sha, behindBy: data.behind_by };
    },
  });
}
