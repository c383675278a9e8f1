// The one comment undrift leaves on a merged revert pull request (its body is
// report/app/revert-merge-body.ts). Found again by its hidden marker and
// edited in place, so a redelivered job never posts a second one.

import { withMarker } from "../report/markers.ts";
import { type EnsureCommentResult, ensureComment } from "./ensure-comment.ts";
import type { GitHubClient, RepoRef } from "./github-client.ts";
import { createWrites } from "./github-writes.ts";
import { listComments } from "./list-comments.ts";

/** `<!-- undrift:revert-merge target=infra -->` */
export function revertMergeMarker(target: string): string {
  return `<!-- undrift:revert-merge target=${target} -->`;
}

/** Posts the comment, or edits the one carrying the marker; unchanged text writes nothing. */
export async function ensureRevertMergeComment(
  params: RepoRef & { octokit: GitHubClient; pullNumber: number; target: string; body: string },
): Promise<EnsureCommentResult> {
  const { pullNumber } = params;
  const marker = revertMergeMarker(params.target);
  // Ours is posted right after the merge, so among the first page of a PR's comments.
  const comments = await listComments({
    ...params,
    number: pullNumber,
    step: `read comments of pull request #${pullNumber}`,
    allPages: false,
  });
  const found = comments.find((c) => c.body?.startsWith(marker));
  return ensureComment({
    writes: createWrites(params),
    number: pullNumber,
    body: withMarker({ marker, body: params.body }),
    existing: found && { id: Number(found.id), url: found.html_url, body: found.body },
    names: {
      create: `comment on pull request #${pullNumber}`,
      update: `update comment on pull request #${pullNumber}`,
    },
  });
}
