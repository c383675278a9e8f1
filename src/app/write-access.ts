// Whether a user may ask undrift to act (`/undrift scan`, `/undrift preview`):
// write access to the repository (admin, maintain, write), read through the
// API at the moment of asking, since a comment's author_association does not
// say what a team grants; and the one short reply (plus audit entry) anyone else gets.
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

/** Answers a command from a user without write access on the issue or pull request, and audits the refusal. */
export async function refuseCommand(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  owner: string;
  repo: string;
  number: number;
  author: string;
  permission: string;
  command: "scan" | "preview";
  /** The target the command was about, when it names one. */
  target?: string;
}): Promise<{ skipped: string }> {
  const { octokit, owner, repo, number, author, command } = params;
  const fullName = `${owner}/${repo}`;
  await replyOnIssue({
    octokit,
    owner,
    repo,
    number,
    body: `@${author}: \`/undrift ${command}\` needs write access to ${fullName}; no ${command} was started.`,
    step: `reply to ${author} on #${number}`,
  });
  await recordAudit({
    queues: params.deps.queues,
    log: params.log,
    entry: {
      event: "refusal",
      repo: fullName,
      ...(params.target ? { target: params.target } : {}),
      actor: author,
      outcome: `/undrift ${command} refused on #${number}: ${author} has ${params.permission} access, not write`,
    },
  });
  return { skipped: `${author} has no write access` };
}
