// An edit of a target's tracking issue (issues.edited) seen as a dashboard:
//   1. the issue carries undrift's tracking marker, and the edit ticked boxes
//      that were not ticked before (the old body is payload.changes.body.from);
//   2. each tick is claimed once in Redis, by box and by the body it was seen
//      in, so a redelivered edit, or a second delivery of the same edit, does
//      nothing more;
//   3. only a user with write access may ask (read through the API, as for
//      `/undrift scan`): anyone else's ticks are unticked with a short reply,
//      and nothing else happens;
//   4. the target in the config in force gets one `dashboard` job on its
//      cluster's queue, which acts, unticks the boxes and says who asked for what.
// Edits by bots (undrift's own unticking among them) are not requests.
import type { ProbotOctokit } from "probot";
import { editIssueBody } from "../github/issue-body.ts";
import { enqueueDashboard } from "../queue/enqueue-dashboard.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { newlyTicked, type TickedBox, untick } from "../report/app/dashboard-boxes.ts";
import { digestOf, readMarker } from "../report/markers.ts";
import type { DeliveryClaims } from "../state/delivery-claims.ts";
import { recordAudit } from "../state/record-audit.ts";
import type { AppDeps } from "./app-deps.ts";
import { configuredTarget } from "./configured-target.ts";
import { refuseWithoutWrite, writeAccess } from "./write-access.ts";

interface IssueEdit {
  installationId: number;
  owner: string;
  repo: string;
  number: number;
  /** The body before the edit; absent when the edit changed only the title. */
  before: string | undefined;
  after: string | null | undefined;
  sender: string;
  senderIsBot: boolean;
}

/** The dashboard job queued, or why none was. */
export async function handleDashboardEdit(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  claims: DeliveryClaims;
  edit: IssueEdit;
}): Promise<{ job?: string; skipped?: string }> {
  const { edit } = params;
  const { owner, repo } = edit;
  const fullName = `${owner}/${repo}`;
  if (edit.senderIsBot) return { skipped: "a bot's edit" };
  // 1. A tracking issue, and boxes newly ticked.
  const target = readMarker(edit.after, "tracking")?.target;
  if (!target) return { skipped: "not a tracking issue of undrift" };
  if (edit.before === undefined) return { skipped: "the body did not change" };
  const ticked = newlyTicked(edit.before, edit.after);
  if (ticked.length === 0) return { skipped: "no box newly ticked" };

  // 2. Each tick once: by box and by the body it was ticked in (a later tick of the same box has another body).
  const seenIn = digestOf(edit.after ?? "");
  const fresh: TickedBox[] = [];
  const keys: string[] = [];
  for (const box of ticked) {
    const key = `dashboard:${fullName.toLowerCase()}#${edit.number}:${box.id}:${seenIn}`;
    if (await params.claims.claim(key)) {
      fresh.push(box);
      keys.push(key);
    }
  }
  if (fresh.length === 0) return { skipped: "these ticks were acted on already" };
  // A failure releases the claims, so GitHub's redelivery of this edit runs again.
  try {
    const result = await actOnTicks({ ...params, target, fresh });
    for (const key of keys) await params.claims.done(key);
    return result;
  } catch (error) {
    for (const key of keys) await params.claims.release(key);
    throw error;
  }
}

/** Steps 3 and 4, for the ticks claimed. */
async function actOnTicks(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  edit: IssueEdit;
  target: string;
  fresh: TickedBox[];
}): Promise<{ job?: string; skipped?: string }> {
  const { deps, octokit, log, edit, target, fresh } = params;
  const { owner, repo } = edit;
  const fullName = `${owner}/${repo}`;

  // 3. Who asks.
  const access = await writeAccess({ octokit, owner, repo, username: edit.sender });
  if (!access.allowed) {
    await refuseTicks({ ...params, target, boxes: fresh, permission: access.permission });
    return { skipped: `${edit.sender} has no write access` };
  }

  // 4. The target's cluster, and the job.
  const configured = await configuredTarget({ deps, octokit, owner, repo, target });
  if ("skipped" in configured) return configured;
  // Audited first, so the request comes before what the worker does for it.
  await recordAudit({
    queues: deps.queues,
    log,
    entry: {
      event: "dashboard-request",
      repo: fullName,
      target,
      cluster: configured.target.cluster,
      actor: edit.sender,
      outcome: `ticked ${fresh.map((b) => b.action).join(", ")} on #${edit.number}`,
    },
  });
  const job = await enqueueDashboard({
    queues: deps.queues,
    job: {
      installationId: edit.installationId,
      repo: fullName,
      target,
      cluster: configured.target.cluster,
      issue: edit.number,
      boxes: fresh,
      requestedBy: edit.sender,
    },
  });
  return { job };
}

/** Unticks what a user without write access ticked, tells them why in one comment, and audits it. */
async function refuseTicks(params: {
  deps: AppDeps;
  octokit: ProbotOctokit;
  log: QueueLog;
  edit: IssueEdit;
  target: string;
  boxes: TickedBox[];
  permission: string;
}): Promise<void> {
  const { octokit, edit, boxes } = params;
  const { owner, repo, number, sender } = edit;
  const fullName = `${owner}/${repo}`;
  await editIssueBody({
    octokit,
    owner,
    repo,
    issue: number,
    body: untick(edit.after ?? "", new Set(boxes.map((b) => b.id))),
    step: `untick the boxes ${sender} ticked on #${number}`,
  });
  await refuseWithoutWrite({
    deps: params.deps,
    octokit,
    log: params.log,
    permission: params.permission,
    target: params.target,
    owner,
    repo,
    number,
    user: sender,
    reply: `the dashboard's boxes need write access to ${fullName}; the box was unticked and nothing was done.`,
    asked: `dashboard ${boxes.map((b) => b.action).join(", ")}`,
  });
}
