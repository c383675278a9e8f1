// A Notice from what a scan found: the report's counts, its drifted objects
// and their field paths (never values), the people who changed them, and
// where to act. The report is masked already (mask.ts), and a notice carries
// no value anyway, so a Secret's data cannot reach a channel.
import type { NotifyEvent } from "../../config/notification-schema.ts";
import { objectLabel } from "../../model/object-label.ts";
import type { DriftReport } from "../../model/types.ts";
import { personOf } from "../describe-actor.ts";
import { NOTICE_MAX_FIELDS, NOTICE_MAX_OBJECTS, type Notice } from "./notice.ts";

export function buildNotice(params: {
  event: NotifyEvent;
  repo: string;
  cluster: string;
  report: DriftReport;
  summary: string;
  links: Notice["links"];
  reminder?: number;
  since?: string;
}): Notice {
  const { report } = params;
  const drift = report.resources.filter((r) => r.status !== "in-sync");
  const actors = new Set<string>();
  for (const r of drift) for (const c of r.changes) if (c.actor) actors.add(personOf(c.actor));
  return {
    event: params.event,
    reminder: params.reminder ?? 0,
    repo: params.repo,
    target: report.target,
    cluster: params.cluster,
    revision: report.revision,
    fingerprint: report.fingerprint,
    counts: { ...report.summary },
    objects: drift.slice(0, NOTICE_MAX_OBJECTS).map((r) => ({
      label: objectLabel(r),
      status: r.status,
      fields: r.changes.slice(0, NOTICE_MAX_FIELDS).map((c) => c.path),
      moreFields: Math.max(0, r.changes.length - NOTICE_MAX_FIELDS),
    })),
    moreObjects: Math.max(0, drift.length - NOTICE_MAX_OBJECTS),
    actors: [...actors].sort(),
    summary: params.summary,
    ...(params.since ? { since: params.since } : {}),
    links: params.links,
  };
}
