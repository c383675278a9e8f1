// After a scan: which events the target's channels hear, enqueued once each.
//   drift      the report has drift whose fingerprint was not announced yet
//   resolved   the report is clean and drift had been announced
//   heal, fight, prune-refused   what the modes did (mode.done), when it differs from the last announced
//   failing    only from a failed scan (notify-failure.ts); a scan that worked forgets it
// Objects snoozed from the dashboard are out of `report`, so they are not
// announced; a change of its drift that a new snooze alone explains (the drift
// outside the earlier snoozes is what was announced) is not news: nothing is
// sent, reminders of the drift that named the snoozed object stop, and one of
// the rest is queued. When a snooze ends on an object that still drifts, the
// drift is announced again, once.
// The state is written after the jobs are added: a scan job run again before
// that computes the same delivery ids, which BullMQ adds once; after it, the
// same report is no change at all. A repository without `notifications` reads
// and writes nothing.

import type { NotificationConfig, NotifyEvent } from "../../config/notification-schema.ts";
import { fingerprint } from "../../drift/fingerprint.ts";
import { keyString, refKey } from "../../model/object-key.ts";
import type { ObjectRef } from "../../model/object-label.ts";
import { shortHash } from "../../model/short-hash.ts";
import type { DriftReport, ResourceReport } from "../../model/types.ts";
import type { ModeResult } from "../../modes/mode-result.ts";
import { NOTIFY_JOB, type NotifyJob, notifyJobId } from "../../queue/notify-jobs.ts";
import { buildNotice } from "../../report/notify/build-notice.ts";
import type { Notice } from "../../report/notify/notice.ts";
import { notifyState, type TargetNotifyState } from "../../state/notify-state.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { usableNotifications } from "./usable-notifications.ts";

// What the modes record (heal-mode-result.ts) for each event a channel can hear.
const MODE_EVENTS: Array<[NotifyEvent, string]> = [
  ["heal", "heal"],
  ["fight", "heal-stopped"],
  ["prune-refused", "prune-refused"],
];

export interface NotifyScanParams {
  deps: Pick<WorkerDeps, "queues" | "registry" | "log">;
  repo: string;
  notifications: NotificationConfig[];
  cluster: string;
  report: DriftReport;
  /** The objects left out of `report` as snoozed, and the report with them. */
  snoozed?: { refs: ObjectRef[]; unsnoozed: DriftReport };
  mode: ModeResult;
  links: Notice["links"];
  /** The scan job's id: the same when the job runs again, so what it did is announced once. */
  scanJobId: string;
  now?: Date;
}

/** One event to announce, with its delivery id's parts. */
interface Send {
  event: NotifyEvent;
  id: Array<string | number>;
  notice: Notice;
  version?: number;
  /** Only a reminder, `remind` from now: the drift is not news. */
  remindOnly?: boolean;
}

type StateUpdate = Parameters<ReturnType<typeof notifyState>["set"]>[2];
type NoticeOf = (event: NotifyEvent, summary: string, extra?: { since?: string; links?: Notice["links"] }) => Notice;

/** Enqueues what the scan's channels should hear; returns the events enqueued, for the job's actions. */
export async function notifyScan(params: NotifyScanParams): Promise<string[]> {
  const { deps, repo, report, cluster } = params;
  const notifications = usableNotifications({ deps, repo, notifications: params.notifications });
  if (notifications.length === 0) return [];
  const store = notifyState({ redis: deps.queues.connection, prefix: deps.queues.prefix });
  const before = await store.get(repo, report.target);
  const snoozedNow = (params.snoozed?.refs ?? []).map((ref) => keyString(refKey(ref)));
  const update: StateUpdate = { seen: {}, snoozed: snoozedNow };
  const notice: NoticeOf = (event, summary, extra = {}) =>
    buildNotice({
      event,
      repo,
      cluster,
      report,
      summary,
      links: extra.links ?? params.links,
      ...(extra.since ? { since: extra.since } : {}),
    });
  const sends = [
    ...driftSends({ params, before, snoozedNow, update, notice }),
    ...modeSends({ params, before, update, notice }),
  ];
  if (before.seen.failing) update.seen!.failing = "";

  const queue = deps.queues.notify();
  const jobs = sends.flatMap((send) => jobsOf(send, notifications, params));
  if (jobs.length > 0) await queue.addBulk(jobs);
  await store.set(repo, report.target, update);
  return jobs.map((j) =>
    j.data.notice.reminder > 0
      ? `queued drift reminder to ${j.data.channel}`
      : `queued ${j.data.notice.event} notification to ${j.data.channel}`,
  );
}

/** drift, resolved, or a snooze's reminder: what the report's drift says against what was announced; `update` gets the new state. */
function driftSends(p: {
  params: NotifyScanParams;
  before: TargetNotifyState;
  snoozedNow: string[];
  update: StateUpdate;
  notice: NoticeOf;
}): Send[] {
  const { params, before, snoozedNow, update, notice } = p;
  const { report } = params;
  const now = (params.now ?? new Date()).toISOString();
  const drifted = report.summary.drifted + report.summary.missing + report.summary.orphaned > 0;
  const changed = drifted ? report.fingerprint !== before.fingerprint : before.fingerprint !== "";
  const version = before.version + 1;
  if (changed && onlySnoozed({ before, snoozedNow, report, unsnoozed: params.snoozed?.unsnoozed ?? report })) {
    // A snooze began: nothing is sent; the reminders queued (which name the snoozed object) are no longer due.
    Object.assign(update, { fingerprint: drifted ? report.fingerprint : "", version });
    if (!drifted) return [];
    return [
      {
        event: "drift",
        id: ["remind", report.fingerprint, version],
        notice: { ...notice("drift", "", before.since ? { since: before.since } : {}), reminder: 1 },
        version,
        remindOnly: true,
      },
    ];
  }
  if (drifted && report.fingerprint !== before.fingerprint) {
    const since = before.fingerprint ? (before.since ?? now) : now;
    Object.assign(update, { fingerprint: report.fingerprint, version, since });
    return [
      { event: "drift", id: ["drift", report.fingerprint, version], notice: notice("drift", "", { since }), version },
    ];
  }
  if (!drifted && before.fingerprint) {
    const summary = `The drift first seen ${before.since ?? "earlier"} is gone.`;
    Object.assign(update, { fingerprint: "", version });
    return [
      {
        event: "resolved",
        id: ["resolved", before.fingerprint, version],
        notice: notice("resolved", summary, before.since ? { since: before.since } : {}),
      },
    ];
  }
  return [];
}

/** heal, fight and prune-refused: what the modes did, when it differs from what was last announced. */
function modeSends(p: {
  params: NotifyScanParams;
  before: TargetNotifyState;
  update: StateUpdate;
  notice: NoticeOf;
}): Send[] {
  const { params, before, update, notice } = p;
  const sends: Send[] = [];
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
  return sends;
}

/** One notify job per channel that hears the event (a reminder only for channels that remind). */
function jobsOf(send: Send, notifications: ReturnType<typeof usableNotifications>, params: NotifyScanParams) {
  const { deps, repo, report } = params;
  return notifications
    .filter((n) => n.events.includes(send.event) && (!send.remindOnly || n.remindMs > 0))
    .map((n) => {
      const data: NotifyJob = {
        channel: n.channel,
        notice: send.notice,
        ...(send.event === "drift" && n.remindMs > 0 && send.version
          ? { remind: { everyMs: n.remindMs, version: send.version } }
          : {}),
      };
      const jobId = notifyJobId([repo.toLowerCase(), report.target, ...send.id], n.channel);
      const delay = send.remindOnly ? { delay: n.remindMs } : {};
      return { name: NOTIFY_JOB, data, opts: { ...deps.queues.notifyJobOptions, jobId, ...delay } };
    });
}

/**
 * Whether the report differs from what was announced only because more objects are snoozed: the drift outside
 * the snoozes of the last scan is the one announced, and no snooze ended on an object that still drifts.
 */
function onlySnoozed(params: {
  before: TargetNotifyState;
  snoozedNow: string[];
  report: DriftReport;
  unsnoozed: DriftReport;
}): boolean {
  const { before, snoozedNow } = params;
  // State kept before snoozes were: nothing to tell a snooze by.
  if (!before.snoozed) return false;
  const earlier = new Set(before.snoozed);
  const now = new Set(snoozedNow);
  const key = (r: ResourceReport) => keyString(refKey(r));
  const woke = params.report.resources.some((r) => r.status !== "in-sync" && earlier.has(key(r)) && !now.has(key(r)));
  if (woke) return false;
  const outside = params.unsnoozed.resources.filter((r) => !earlier.has(key(r)));
  const asBefore = outside.some((r) => r.status !== "in-sync") ? fingerprint(outside) : "";
  return asBefore === before.fingerprint;
}
