// The body of an issue undrift edits in place (a tracking issue's dashboard):
// written whole, or read as it is now and rewritten, so a change made since
// the last read (a person's tick, another job's line) is kept.
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

interface IssueRef extends RepoRef {
  octokit: GitHubClient;
  issue: number;
}

/** Sets the issue's body; `step` names a failure (`untick the dashboard boxes of #4`). */
export async function editIssueBody(params: IssueRef & { body: string; step: string }): Promise<void> {
  const { octokit, owner, repo, issue, body } = params;
  await githubStep({
    repo: { owner, repo },
    step: params.step,
    run: () =>
      octokit.request("PATCH /repos/{owner}/{repo}/issues/{issue_number}", { owner, repo, issue_number: issue, body }),
  });
}

/**
 * Reads the issue's body (a missing one as ""), and edits it only when `rewrite` changed it: one read, at most one
 * edit. `steps` name a failure of each (`read tracking issue #4`, `untick the dashboard boxes of #4`).
 */
export async function rewriteIssueBody(
  params: IssueRef & { rewrite: (before: string) => string; steps: { read: string; edit: string } },
): Promise<void> {
  const { octokit, owner, repo, issue } = params;
  const { data } = await githubStep({
    repo: { owner, repo },
    step: params.steps.read,
    run: () => octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", { owner, repo, issue_number: issue }),
  });
  const before = data.body ?? "";
  const body = params.rewrite(before);
  if (body === before) return;
  await editIssueBody({ ...params, body, step: params.steps.edit });
}
