// The notify queue: one job per (notification, channel), so a channel that
// fails fails only its own jobs. A job carries the rendered-to-be notice and
// the channel's name, never its URL or secret: the worker looks those up in
// the server's registry when it sends.
//
//   undrift-notify   `notify` jobs; the job id is the delivery id, derived from
//                    what is notified (notifyJobId), so the same event enqueued
//                    twice (a redelivered scan) is one job

import { z } from "zod";
import { shortHash } from "../model/short-hash.ts";
import { noticeSchema } from "../report/notify/notice.ts";

/** The queue every worker process sends notifications from. */
export const NOTIFY_QUEUE = "undrift-notify";
/** The job name of one notification to one channel. */
export const NOTIFY_JOB = "notify";

export const notifyJobSchema = z.strictObject({
  channel: z.string().min(1).describe("A channel name in the server's registry, never its URL."),
  notice: noticeSchema,
  remind: z
    .strictObject({
      everyMs: z.number().int().positive(),
      /** The target's notify state version this drift was sent at; a later change of the drift ends the reminders. */
      version: z.number().int().positive(),
    })
    .optional()
    .describe("Reminders while the same drift stays unresolved."),
});
/** The payload of a `notify` job. */
export type NotifyJob = z.output<typeof notifyJobSchema>;

/** How notify jobs retry: 8 tries over about 20 minutes, honouring a 429's Retry-After; a week of finished ones kept, so their ids deduplicate. */
export const NOTIFY_JOB_OPTIONS = {
  attempts: 8,
  backoffMs: 5_000,
  keepCompleted: { count: 10_000, ageSeconds: 7 * 24 * 3600 },
  keepFailed: { count: 5_000, ageSeconds: 30 * 24 * 3600 },
};

/** The delivery id of a notification: a hash of what it is about, and the channel; no ":" (BullMQ refuses it in ids). */
export function notifyJobId(parts: readonly (string | number)[], channel: string): string {
  return `n-${shortHash(JSON.stringify([...parts, channel]), 32)}`;
}
