// `/undrift scan` in a comment on a target's tracking issue or drift pull
// request (issue_comment.created):
//   1. the issue or PR names its target in undrift's hidden marker; a comment
//      anywhere else, or without the command on a line of its own, is not ours;
//   2. only a user with write access (admin, maintain, write) may ask: anyone
//      else gets a short reply saying so, and nothing is queued;
//   3. the target must be in the config in force (the last valid one when the
//      file is invalid just now) with a cluster the registry allows; then one
//      scan, reason `comment`, goes to its cluster's queue. It reads the default
//      branch head when it runs, and folds into a scan of the target that waits.
// `/undrift preview` on a pull request goes to handle-preview-command.ts, under the same write-access rule.
// Comments from bots are ignored, so no app can set off scans, nor answer our replies.
import type { ProbotOctokit } from "probot";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { readMarker } from "../report/markers.ts";
import type { AppDeps } from "./app-deps.ts";
import { configuredTarget } from "./configured-target.ts";
import { handlePreviewCommand, PREVIEW_COMMAND } from "./preview/handle-preview-command.ts";
import { refuseCommand, writeAccess } from "./write-access.ts";

const COMMAND = /^\s*\/undrift\s+scan\s*$/m;

interface IssueComment {
  installationId: number;
  owner: string;
  repo: string;
  /** The issue or pull request commented on. */
  number: number;
  issueBody: string | null | undefined;
  comment: string;
  author: string;
  authorIsBot: boolean;
  /** The comment is on a pull request: `/undrift preview` is honoured there. */
  pullRequest?: boolean;
}

/** The scan job queued, or why none was. */
export async function handleIssueComment(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  comment: IssueComment;
}): Promise<{ job?: string; jobs?: string[]; skipped?: string }> {
  const { deps, octokit, log, comment } = params;
  const { owner, repo } = comment;
  const fullName = `${owner}/${repo}`;
  if (comment.authorIsBot) return { skipped: "a bot's comment" };
  if (comment.pullRequest && PREVIEW_COMMAND.test(comment.comment)) {
    return handlePreviewCommand({ deps, octokit, log, comment });
  }
  if (!COMMAND.test(comment.comment)) return { skipped: "not an /undrift scan command" };
  // 1. Which target: the tracking issue's marker, or the drift PR's.
  const target = (readMarker(comment.issueBody, "tracking") ?? readMarker(comment.issueBody, "pr"))?.target;
  if (!target) return { skipped: "not a tracking issue or drift pull request of undrift" };

  // 2. Who asks.
  const access = await writeAccess({ octokit, owner, repo, username: comment.author });
  if (!access.allowed) {
    return refuseCommand({
      deps,
      octokit,
      log,
      owner,
      repo,
      number: comment.number,
      author: comment.author,
      permission: access.permission,
      command: "scan",
      target,
    });
  }

  // 3. The target in the config in force, on a cluster the registry allows.
  const configured = await configuredTarget({ deps, octokit, owner, repo, target });
  if ("skipped" in configured) return configured;
  const found = configured.target;
  const job = await enqueueScan({
    queues: deps.queues,
    job: {
      installationId: comment.installationId,
      repo: fullName,
      target: found.name,
      cluster: found.cluster,
      reason: "comment",
    },
  });
  log.info({ repo: fullName, target, actor: comment.author, job }, "/undrift scan: scan queued");
  return { job };
}
