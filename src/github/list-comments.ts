// The comments of an issue or pull request, oldest first, for the writers that
// find their own comment again by its hidden marker (ensureComment).
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { githubStep } from "./github-errors.ts";

/** One comment as the list route answers it. */
export type ListedComment = Awaited<ReturnType<typeof listPage>>[number];

export interface ListCommentsParams extends RepoRef {
  octokit: GitHubClient;
  number: number;
  /** What a failure is named after: `list comments of #12`. */
  step: string;
  /** Every page (a busy PR has more than 100), or only the first, for a comment posted early. */
  allPages: boolean;
}

export async function listComments(params: ListCommentsParams): Promise<ListedComment[]> {
  if (!params.allPages) return githubStep({ repo: params, step: params.step, run: () => listPage(params) });
  const all: ListedComment[] = [];
  for (let page = 1; ; page++) {
    const data = await githubStep({ repo: params, step: params.step, run: () => listPage(params, page) });
    all.push(...data);
    if (data.length < 100) return all;
  }
}

async function listPage(params: ListCommentsParams, page?: number) {
  const { octokit, owner, repo, number } = params;
  const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
    owner,
    repo,
    issue_number: number,
    per_page: 100,
    ...(page === undefined ? {} : { page }),
  });
  return data;
}
