// Puts a drift PR's branch at a new commit: creates it, or force-moves it
// (undrift owns `undrift/<mode>/<target>`; a force-push replaces its own commit).
import { statusOf } from "./github-errors.ts";
import type { Writes } from "./github-writes.ts";

export interface PointBranchParams {
  writes: Writes;
  branch: string;
  sha: string;
  /** The branch is known to exist (its PR is open): move it without trying to create it. */
  exists: boolean;
}

export async function pointBranch(params: PointBranchParams): Promise<void> {
  const { writes, branch, sha } = params;
  const force = async () => {
    await writes.request(
      "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
      { ref: `heads/${branch}`, sha, force: true },
      { summary: `force-move branch ${branch}` },
    );
  };
  if (params.exists) return force();
  try {
    await writes.request(
      "POST /repos/{owner}/{repo}/git/refs",
      { ref: `refs/heads/${branch}`, sha },
      { summary: `create branch ${branch}` },
    );
  } catch (error) {
    // 422 "Reference already exists": left behind by a PR closed by hand, or by an earlier attempt of this job.
    if (statusOf(error) !== 422) throw error;
    await force();
  }
}
