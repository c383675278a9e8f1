// `/undrift preview` in a comment on a pull request (issue_comment.created):
// the preview runs again for the pull request's current head, with fresh job
// ids, so a cluster that changed since (or a preview that failed) is shown
// anew. Only a user with write access may ask, checked through the API as for
// `/undrift scan`; anyone else gets a short reply, and nothing is queued. A
// writer's request also previews a draft or a fork's pull request: asking is the approval.
import type { ProbotOctokit } from "probot";
import { readPull } from "../../github/read-pull.ts";
import type { QueueLog } from "../../queue/queue-log.ts";
import type { AppDeps } from "../app-deps.ts";
import { refuseCommand, writeAccess } from "../write-access.ts";
import { requestPreview } from "./request-preview.ts";

/** The command on a line of its own. */
export const PREVIEW_COMMAND = /^\s*\/undrift\s+preview\s*$/m;

export async function handlePreviewCommand(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  comment: { installationId: number; owner: string; repo: string; number: number; author: string };
}): Promise<{ jobs: string[]; skipped?: string }> {
  const { deps, octokit, log, comment } = params;
  const { owner, repo, number, author } = comment;
  const fullName = `${owner}/${repo}`;

  const access = await writeAccess({ octokit, owner, repo, username: author });
  if (!access.allowed) {
    const refused = await refuseCommand({
      deps,
      octokit,
      log,
      owner,
      repo,
      number,
      author,
      permission: access.permission,
      command: "preview",
    });
    return { jobs: [], ...refused };
  }

  const pr = await readPull({ octokit, owner, repo, number });
  if (pr.state !== "open") return { jobs: [], skipped: "the pull request is closed" };
  if (pr.head.ref.startsWith("undrift/") && pr.head.repo?.full_name.toLowerCase() === fullName.toLowerCase()) {
    return { jobs: [], skipped: "undrift's own branch" };
  }
  const queued = await requestPreview({
    deps,
    octokit,
    log,
    request: {
      installationId: comment.installationId,
      owner,
      repo,
      number,
      head: pr.head.sha,
      baseSha: pr.base.sha,
      reason: "comment",
      refresh: true,
    },
  });
  log.info(
    { repo: fullName, pullRequest: number, actor: author, jobs: queued.jobs },
    "/undrift preview: preview queued",
  );
  return queued;
}
