// Whether a user may ask undrift to act (`/undrift scan`, `/undrift preview`):
// write access to the repository (admin, maintain, write), read through the
// API at the moment of asking, since a comment's author_association does not
// say what a team grants.
import type { ProbotOctokit } from "probot";
import { githubStep } from "../github/github-errors.ts";

const WRITE_ROLES = new Set(["admin", "maintain", "write"]);

/** `allowed` with the permission GitHub reports (`read`, `write`, ...), for the refusal and the audit. */
export async function writeAccess(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  username: string;
}): Promise<{ allowed: boolean; permission: string }> {
  const { octokit, owner, repo, username } = params;
  const { data } = await githubStep({
    repo: { owner, repo },
    step: `read the permission of ${username}`,
    run: () =>
      octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { owner, repo, username }),
  });
  return { allowed: WRITE_ROLES.has(data.role_name) || WRITE_ROLES.has(data.permission), permission: data.permission };
}
