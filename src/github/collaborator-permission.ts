// What a user may do in a repository, as GitHub reports it at the moment of
// asking: a comment's author_association does not say what a team grants.
// Whether that is enough to ask undrift for something is the caller's rule.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** `permission` (admin, write, read, none) and `role_name` (maintain, triage, or a custom role's). */
export async function collaboratorPermission(
  params: RepoRef & { octokit: GitHubClient; username: string },
): Promise<{ permission: string; role_name: string }> {
  const { octokit, owner, repo, username } = params;
  const { data } = await githubStep({
    repo: { owner, repo },
    step: `read the permission of ${username}`,
    run: () =>
      octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { owner, repo, username }),
  });
  return data;
}
