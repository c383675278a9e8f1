// pull_request opened, synchronize, reopened and ready_for_review: the preview
// of what merging would change in the live clusters (request-preview.ts).
// Not previewed:
//   - drafts, until ready_for_review (or `/undrift preview` from a writer);
//   - undrift's own branches (`undrift/*`): their pull requests say what they do;
//   - pull requests from forks: their head would choose which clusters are read
//     and what is dry-run there, so a writer asks with `/undrift preview`.
import type { ProbotOctokit } from "probot";
import type { QueueLog } from "../../queue/queue-log.ts";
import type { AppDeps } from "../app-deps.ts";
import { requestPreview } from "./request-preview.ts";

export interface OpenPullRequest {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  action: string;
  draft: boolean;
  headRef: string;
  headSha: string;
  /** The repository the head branch lives in (owner/name). */
  headRepo: string | undefined;
  baseSha: string;
}

export const PREVIEW_ACTIONS = ["opened", "synchronize", "reopened", "ready_for_review"] as const;

/** The preview jobs queued, or why none was. */
export async function handlePullRequest(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  pr: OpenPullRequest;
}): Promise<{ jobs: string[]; skipped?: string }> {
  const { pr } = params;
  const fullName = `${pr.owner}/${pr.repo}`;
  const skip = (why: string) => {
    params.log.info({ repo: fullName, pullRequest: pr.number, action: pr.action }, `no preview: ${why}`);
    return { jobs: [], skipped: why };
  };
  if (pr.draft) return skip("a draft");
  if (pr.headRef.startsWith("undrift/")) return skip("undrift's own branch");
  if (pr.headRepo?.toLowerCase() !== fullName.toLowerCase())
    return skip("a fork's branch: a writer may ask with /undrift preview");
  return requestPreview({
    ...params,
    request: {
      installationId: pr.installationId,
      owner: pr.owner,
      repo: pr.repo,
      number: pr.number,
      head: pr.headSha,
      baseSha: pr.baseSha,
      reason: "pull_request",
    },
  });
}
