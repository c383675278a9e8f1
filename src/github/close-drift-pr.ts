// Closes the drift PR of a (target, mode) with a comment once its drift is
// gone (the cluster changed back, or Git was changed to match), and deletes
// its branch so the next drift starts from a fresh one.

import { driftPrClosedComment } from "../report/markers.ts";
import { commentThenClose } from "./comment-then-close.ts";
import { type DriftPrMode, driftBranch, findDriftPr } from "./find-drift-pr.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { statusOf } from "./github-errors.ts";
import { createWrites, type WriteRecord } from "./github-writes.ts";

export interface CloseDriftPrParams extends RepoRef {
  octokit: GitHubClient;
  target: string;
  mode: DriftPrMode;
  /** The comment posted before closing; a default names the target and revision. */
  comment?: string;
  revision?: string;
  /** Delete `undrift/<mode>/<target>` after closing (default true). */
  deleteBranch?: boolean;
  dryRun?: boolean;
}

export interface CloseDriftPrResult {
  action: "closed" | "unchanged";
  dryRun: boolean;
  branch: string;
  number?: number;
  url?: string;
  writes: WriteRecord[];
}

export async function closeDriftPr(params: CloseDriftPrParams): Promise<CloseDriftPrResult> {
  const { target, mode } = params;
  const branch = driftBranch({ target, mode });
  const writes = createWrites(params);
  const pr = await findDriftPr(params);
  if (!pr) return { action: "unchanged", dryRun: writes.dryRun, branch, writes: writes.records };
  const n = pr.number;
  const comment =
    params.comment ?? driftPrClosedComment({ target, mode, ...(params.revision ? { revision: params.revision } : {}) });
  await commentThenClose({
    writes,
    close: { pullRequest: n },
    name: `pull request #${n}`,
    why: ": drift gone",
    comment,
  });
  if (params.deleteBranch !== false) {
    await writes.request(
      "DELETE /repos/{owner}/{repo}/git/refs/{ref}",
      { ref: `heads/${branch}` },
      {
        summary: `delete branch ${branch}`,
        // Already gone (deleted by hand, or by GitHub's auto-delete of head branches): that is what we wanted.
        recover: async (error) => {
          if (statusOf(error) !== 422 && statusOf(error) !== 404) throw error;
        },
      },
    );
  }
  return { action: "closed", dryRun: writes.dryRun, branch, number: n, url: pr.html_url, writes: writes.records };
}
