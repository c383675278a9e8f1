// A pull request as it is now (state, head, base), for a command about it
// (`/undrift preview`): the comment's payload says nothing of its head.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

export async function readPull(params: RepoRef & { octokit: GitHubClient; number: number }) {
  const { octokit, owner, repo, number } = params;
  const { data } = await githubStep({
    repo: { owner, repo },
    step: `read pull request #${number}`,
    run: () => octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: number }),
  });
  return data;
}
