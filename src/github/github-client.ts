// The one thing the GitHub writers need from a client: Octokit's `request`.
// Probot's context.octokit (ProbotOctokit) and `new Octokit()` from octokit
// both fit, and so does any test double that implements `request`.
import type { Octokit } from "octokit";

/** A client whose `request(route, params)` is Octokit's: typed routes, retries and throttling as the caller set them up. */
export type GitHubClient = Pick<Octokit, "request">;

/** A repository as the REST routes name it. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** `owner/repo`, as messages and store keys spell it. */
export function repoName(ref: RepoRef): string {
  return `${ref.owner}/${ref.repo}`;
}
