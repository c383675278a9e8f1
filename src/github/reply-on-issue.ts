// One plain comment on an issue or pull request, posted once and never looked
// for again: the answers undrift gives a person (a refused command, a refused
// or failed dashboard tick). No marker, no edit: each answer is its own event,
// unlike the comments ensureComment keeps up to date.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

export async function replyOnIssue(
  params: RepoRef & {
    octokit: GitHubClient;
    /** The issue or pull request. */
    number: number;
    body: string;
    /** What a failure is named after: `reply to bob on #4`. */
    step: string;
  },
): Promise<void> {
  const { octokit, owner, repo, number, body } = params;
  await githubStep({
    repo: { owner, repo },
    step: params.step,
    run: () =>
      octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        owner,
        repo,
        issue_number: number,
        body,
      }),
  });
}
