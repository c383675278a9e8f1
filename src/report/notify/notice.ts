// What a notification says, as plain data: built once from a scan's (masked)
// report when the event happens, carried in the notify job's payload, and
// rendered per channel kind only when it is sent (slack-message.ts,
// teams-card.ts, webhook-body.ts). Values are never part of it: objects and
// field paths, counts, people, links.
import { z } from "zod";
import { NOTIFY_EVENTS } from "../../config/notification-schema.ts";

/** The most objects a notice lists; the rest are counted in `moreObjects`. */
export const NOTICE_MAX_OBJECTS = 10;
/** The most field paths listed per object. */
export const NOTICE_MAX_FIELDS = 5;

export const noticeSchema = z.strictObject({
  event: z.enum(NOTIFY_EVENTS),
  /** 0 for the first message of this drift; 1, 2, ... for each reminder while it stays. */
  reminder: z.number().int().min(0),
  repo: z.string(),
  target: z.string(),
  cluster: z.string(),
  revision: z.string(),
  /** The drift's fingerprint (drift-fingerprint.ts); empty for a failing scan. */
  fingerprint: z.string(),
  counts: z.strictObject({
    drifted: z.number().int(),
    missing: z.number().int(),
    orphaned: z.number().int(),
    inSync: z.number().int(),
  }),
  objects: z.array(
    z.strictObject({ label: z.string(), status: z.string(), fields: z.array(z.string()), moreFields: z.number() }),
  ),
  moreObjects: z.number().int(),
  /** Who changed the drifted fields, from the report's `changes[].actor` (`alice (sre)`), when known. */
  actors: z.array(z.string()),
  /** One line: what happened (`healed apps/v1 Deployment shop/web`, the scan's error). */
  summary: z.string(),
  /** When the drift was first seen (ISO 8601), for reminders and resolved. */
  since: z.string().optional(),
  links: z.strictObject({
    repository: z.string().optional(),
    check: z.string().optional(),
    issue: z.string().optional(),
    pullRequest: z.string().optional(),
  }),
});

/** A notification before it is rendered for a channel. */
export type Notice = z.output<typeof noticeSchema>;

const TITLES: Record<Notice["event"], string> = {
  drift: "Drift found",
  resolved: "Drift resolved",
  heal: "Healed",
  fight: "Healing stopped: a fight",
  failing: "Scan failing",
  "prune-refused": "Prune refused",
};

/** `Drift found in infra on prod-eu`, `Still drifted (reminder 2) ...`: the first line every kind shows. */
export function noticeTitle(notice: Notice): string {
  const title = notice.reminder > 0 ? `Still drifted (reminder ${notice.reminder})` : TITLES[notice.event];
  return `${title}: ${notice.target} on ${notice.cluster}`;
}

/** `2 drifted, 1 missing, 0 orphaned`. */
export function noticeCounts(notice: Notice): string {
  const { drifted, missing, orphaned } = notice.counts;
  return `${drifted} drifted, ${missing} missing, ${orphaned} orphaned`;
}

/** The links a reader can act from, in the order they matter, with their names. */
export function noticeLinks(notice: Notice): Array<{ text: string; url: string }> {
  const { links } = notice;
  const named: Array<[string, string | undefined]> = [
    ["Pull request", links.pullRequest],
    ["Tracking issue", links.issue],
    ["Check run", links.check],
    ["Repository", links.repository],
  ];
  return named.flatMap(([text, url]) => (url ? [{ text, url }] : []));
}
