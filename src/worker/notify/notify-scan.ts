// After a scan: which events the target's channels hear, enqueued once each.
//   drift      the report has drift whose fingerprint was not announced yet
//   resolved   the report is clean and drift had been announced
//   heal, fight, prune-refused   what the modes did (mode.done), when it differs from the last announced
//   failing    only from a failed scan (notify-failure.ts); a scan that worked forgets it
// The state is written after the jobs are added: a scan job run again before
// that computes the same delivery ids, which BullMQ adds once; after it, the
// same report is no change at all. A repository without `notifications` reads
// and writes nothing.

import type { NotificationConfig, NotifyEvent } from "../../config/notification-schema.ts";
import { shortHash } from "../../model/short-hash.ts";
import type { DriftReport } from "../../model/types.ts";
import { NOTIFY_JOB, type NotifyJob, notifyJobId } from "../../queue/notify-jobs.ts";
import { buildNotice } from "../../report/notify/build-notice.ts";
import type { Notice } from "../../report/notify/notice.ts";
import { notifyState } from "../../state/notify-state.ts";
import type { ModeResult } from "../mode-result.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { usableNotifications } from "./usable-notifications.ts";

// What the modes record (heal-mode-result.ts) for each event a channel can hear.
const MODE_EVENTS: Array<[NotifyEvent, string]> = [
  ["heal", "heal"],
  ["fight", "heal-stopped"],
  ["prune-refused", "prune-refused"],
];

/** Enqueues what the scan's channels should hear; returns the events enqueued, for the job's actions. */
export async function notifyScan(params: {
  deps: Pick<WorkerDeps, "queues" | "registry" | "log">;
  repo: string;
  notifications: NotificationConfig[];
  cluster: string;
  report: DriftReport;
  mode: ModeResult;
  links: Notice["links"];
  /** The scan job's id: the same when the job runs again, so what it did is announced once. */
  scanJobId: string;
  now?: Date;
}): Promise<string[]> {
  const { deps, repo, report, cluster } = params;
  const notifications = usableNotifications({ deps, repo, notifications: params.notifications });
  if (notifications.length === 0) return [];
  const store = notifyState({ redis: deps.queues.connection, prefix: deps.queues.prefix });
  const before = await store.get(repo, report.target);
  const now = (params.now ?? new Date()).toISOString();
  const drifted = report.summary.drifted + report.summary.missing + report.summary.orphaned > 0;
  const sends: Array<{ event: NotifyEvent; id: Array<string | number>; notice: Notice; version?: number }> = [];
  const update: Parameters<typeof store.set>[2] = { seen: {} };
  const notice = (event: NotifyEvent, summary: string, extra: { since?: string; links?: Notice["links"] } = {}) =>
    buildNotice({
      event,
      repo,
      cluster,
      report,
      summary,
      links: extra.links ?? params.links,
      ...(extra.since ? { since: extra.since } : {}),
    });

  if (drifted && report.fingerprint !== before.fingerprint) {
    const version = before.version + 1;
    const since = before.fingerprint ? (before.since ?? now) : now;
    sends.push({
      event: "drift",
      id: ["drift", report.fingerprint, version],
      notice: notice("drift", "", { since }),
      version,
    });
    Object.assign(update, { fingerprint: report.fingerprint, version, since });
  } else if (!drifted && before.fingerprint) {
    const version = before.version + 1;
    const summary = `The drift first seen ${before.since ?? "earlier"} is gone.`;
    sends.push({
      event: "resolved",
      id: ["resolved", before.fingerprint, version],
      notice: notice("resolved", summary, before.since ? { since: before.since } : {}),
    });
    Object.assign(update, { fingerprint: "", version });
  }
  for (const [event, recorded] of MODE_EVENTS) {
    const done = params.mode.done.filter((d) => d.event === recorded);
    const seen = done.length > 0 ? shortHash(JSON.stringify(done.map((d) => [d.summary, d.fields ?? []]))) : "";
    if (seen !== (before.seen[event] ?? "")) update.seen![event] = seen;
    if (!seen || seen === before.seen[event]) continue;
    const url = done.find((d) => d.url)?.url;
    const links = url ? { ...params.links, issue: url } : params.links;
    sends.push({
      event,
      id: [event, seen, params.scanJobId],
      notice: notice(event, done.map((d) => d.summary).join("; "), { links }),
    });
  }
  if (before.seen.failing) update.seen!.failing = "";

  const queue = deps.queues.notify();
  const jobs = sends.flatMap((send) =>
    notifications
      .filter((n) => n.events.includes(send.event))
      .map((n) => {
        const data: NotifyJob = {
          channel: n.channel,
          notice: send.notice,
          ...(send.event === "drift" && n.remindMs > 0 && send.version
            ? { remind: { everyMs: n.remindMs, version: send.version } }
            : {}),
        };
        const jobId = notifyJobId([repo.toLowerCase(), report.target, ...send.id], n.channel);
        return { name: NOTIFY_JOB, data, opts: { ...deps.queues.notifyJobOptions, jobId } };
      }),
  );
  if (jobs.length > 0) await queue.addBulk(jobs);
  await store.set(repo, report.target, update);
  return jobs.map((j) => `queued ${j.data.notice.event} notification to ${j.data.channel}`);
}
