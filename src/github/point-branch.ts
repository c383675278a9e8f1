// Puts a drift PR's branch at a new commit: creates it, or force-moves it
// (undrift owns `undrift/<mode>/<target>`; a force-push replaces its own commit).
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { GitHubError, githubStep, statusOf } from "./github-errors.ts";
import type { Writes } from "./github-writes.ts";

export interface PointBranchParams extends RepoRef {
  octokit: GitHubClient;
  writes: Writes;
  branch: string;
  sha: string;
  /** The branch is known to exist (its PR is open): move it without trying to create it. */
  exists: boolean;
}

export async function pointBranch(params: PointBranchParams): Promise<void> {
  const { octokit, owner, repo, writes, branch, sha } = params;
  const force = async () => {
    await writes.write(
      { route: "PATCH /repos/{owner}/{repo}/git/refs/{ref}", summary: `force-move branch ${branch}` },
      () =>
        githubStep({
          repo: params,
          step: `force-move branch ${branch}`,
          run: () =>
            octokit.request("PATCH /repos/{owner}/{repo}/git/refs/{ref}", {
              owner,
              repo,
              ref: `heads/${branch}`,
              sha,
              force: true,
            }),
        }),
    );
  };
  if (params.exists) return force();
  try {
    await writes.write({ route: "POST /repos/{owner}/{repo}/git/refs", summary: `create branch ${branch}` }, () =>
      octokit.request("POST /repos/{owner}/{repo}/git/refs", { owner, repo, ref: `refs/heads/${branch}`, sha }),
    );
  } catch (error) {
    // 422 "Reference already exists": left behind by a PR closed by hand, or by an earlier attempt of this job.
    if (statusOf(error) !== 422) throw new GitHubError({ repo: params, step: `create branch ${branch}`, error });
    await force();
  }
}
