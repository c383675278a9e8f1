// Whether a user may ask undrift to act (`/undrift scan`, `/undrift preview`):
// write access to the repository (admin, maintain, write), read through the
// API at the moment of asking, since a comment's author_association does not
// say what a team grants; and the one short reply (plus audit entry) anyone else gets, for commands and for dashboard ticks alike.
import type { ProbotOctokit } from "probot";
import { collaboratorPermission } from "../github/collaborator-permission.ts";
import { replyOnIssue } from "../github/reply-on-issue.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { recordAudit } from "../state/record-audit.ts";
import type { AppDeps } from "./app-deps.ts";

const WRITE_ROLES = new Set(["admin", "maintain", "write"]);

/** `allowed` with the permission GitHub reports (`read`, `write`, ...), for the refusal and the audit. */
export async function writeAccess(params: {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  username: string;
}): Promise<{ allowed: boolean; permission: string }> {
  const { octokit, owner, repo, username } = params;
  const data = await collaboratorPermission({ octokit, owner, repo, username });
  return { allowed: WRITE_ROLES.has(data.role_name) || WRITE_ROLES.has(data.permission), permission: data.permission };
}

/** Where a refusal is said and audited: the issue or pull request, and the user's access. */
interface Refusal {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  owner: string;
  repo: string;
  number: number;
  permission: string;
  /** The target it was about, when it names one. */
  target?: string | undefined;
}

/**
 * The one short reply a user without write access gets on the issue or pull request (`@user: ` and
 * `reply`), and the refusal's audit entry, which says what they asked for (`asked`) and their access.
 */
export async function refuseWithoutWrite(
  params: Refusal & { user: string; reply: string; asked: string },
): Promise<void> {
  const { octokit, owner, repo, number, user } = params;
  const fullName = `${owner}/${repo}`;
  await replyOnIssue({
    octokit,
    owner,
    repo,
    number,
    body: `@${user}: ${params.reply}`,
    step: `reply to ${user} on #${number}`,
  });
  await recordAudit({
    queues: params.deps.queues,
    log: params.log,
    entry: {
      event: "refusal",
      repo: fullName,
      ...(params.target ? { target: params.target } : {}),
      actor: user,
      outcome: `${params.asked} refused on #${number}: ${user} has ${params.permission} access, not write`,
    },
  });
}

/** Answers `/undrift scan` or `/undrift preview` from a user without write access: nothing is started. */
export async function refuseCommand(
  params: Refusal & { author: string; command: "scan" | "preview" },
): Promise<{ skipped: string }> {
  const { owner, repo, author, command } = params;
  await refuseWithoutWrite({
    ...params,
    user: author,
    reply: `\`/undrift ${command}\` needs write access to ${owner}/${repo}; no ${command} was started.`,
    asked: `/undrift ${command}`,
  });
  return { skipped: `${author} has no write access` };
}
