// The notify queue's work for one job: a reminder that is no longer due is
// dropped, a delivery its channel accepted already is not posted again (a job
// run twice: redelivered, or retried after the acknowledgement was lost), the
// channel is looked up in the server's registry (URL and secret read now),
// the notice rendered for its kind and posted; then, for drift with `remind`,
// the next reminder is queued.
import { channelFor, readSecret } from "../../config/channel-registry.ts";
import type { ClusterRegistry } from "../../config/cluster-registry.ts";
import type { UndriftQueues } from "../../queue/create-queues.ts";
import { NOTIFY_JOB, type NotifyJob, notifyJobId } from "../../queue/notify-jobs.ts";
import type { NotifyContext } from "../../queue/notify-worker.ts";
import type { Notice } from "../../report/notify/notice.ts";
import { slackMessage } from "../../report/notify/slack-message.ts";
import { teamsCard } from "../../report/notify/teams-card.ts";
import { webhookRequest } from "../../report/notify/webhook-body.ts";
import { notifyState } from "../../state/notify-state.ts";
import { postNotice } from "./post-notice.ts";

/** What a notify job did, kept as its result. */
export type SendOutcome = { outcome: "sent"; status: number } | { outcome: "already-sent" | "no-longer-due" };

export async function sendNotification(params: {
  queues: UndriftQueues;
  registry: ClusterRegistry;
  job: NotifyJob;
  context: NotifyContext;
  env?: NodeJS.ProcessEnv;
}): Promise<SendOutcome> {
  const { queues, job, context } = params;
  const { notice } = job;
  const state = notifyState({ redis: queues.connection, prefix: queues.prefix });

  // 1. A reminder of drift that has changed or gone since is not sent.
  if (notice.reminder > 0 && !(await stillDue(state, job))) return { outcome: "no-longer-due" };

  // 2. Posted once per delivery, however often the job runs.
  if (await state.wasSent(context.delivery)) {
    await queueReminder({ queues, job, delivery: context.delivery });
    return { outcome: "already-sent" };
  }

  // 3. The channel as the server defines it now; a repository that lost access fails here for good.
  const channel = channelFor(params.registry.channels, job.channel, notice.repo);
  const what = `channel "${job.channel}" (${channel.kind})`;
  const url = await readSecret(channel.url, `${what} url`, params.env);
  const request =
    channel.kind === "webhook"
      ? webhookRequest({
          notice,
          delivery: context.delivery,
          secret: await readSecret(channel.secret, `${what} secret`, params.env),
        })
      : { body: JSON.stringify(channel.kind === "slack" ? slackMessage(notice) : teamsCard(notice)), headers: {} };

  // 4. The post, then its mark, then the next reminder.
  const { status } = await postNotice({ what, url, ...request, signal: context.signal });
  await state.markSent(context.delivery);
  await queueReminder({ queues, job, delivery: context.delivery });
  return { outcome: "sent", status };
}

async function stillDue(state: ReturnType<typeof notifyState>, job: NotifyJob): Promise<boolean> {
  const now = await state.get(job.notice.repo, job.notice.target);
  return job.remind !== undefined && now.version === job.remind.version && now.fingerprint === job.notice.fingerprint;
}

/** The next reminder of drift, `remind` from now; its id follows from this one's, so it is queued once. */
async function queueReminder(params: { queues: UndriftQueues; job: NotifyJob; delivery: string }): Promise<void> {
  const { job, queues } = params;
  if (!job.remind || job.notice.event !== "drift") return;
  const next: Notice = { ...job.notice, reminder: job.notice.reminder + 1 };
  const id = notifyJobId([params.delivery, "reminder", next.reminder], job.channel);
  await queues
    .notify()
    .add(NOTIFY_JOB, { ...job, notice: next }, { ...queues.notifyJobOptions, jobId: id, delay: job.remind.everyMs });
}
