// One audit entry (Redis stream and log line) under the queues' prefix: the
// stream is `<prefix>:audit`, which is `undrift:audit`, the one `undrift audit`
// reads, for the default prefix. Lists are cut to the stream's bounds, since
// a scan of thousands of objects must still leave its entry.

import { clip } from "../model/one-line.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { type AuditEntryInput, appendAudit } from "./audit-log.ts";

const MAX_ITEMS = 1000;
const MAX_ITEM = 512;

export async function recordAudit(params: {
  queues: UndriftQueues;
  entry: AuditEntryInput;
  log?: QueueLog;
}): Promise<void> {
  const { entry } = params;
  const bounded: AuditEntryInput = {
    ...entry,
    outcome: boundedLine(entry.outcome, 500),
    ...(entry.objects ? { objects: bound(entry.objects) } : {}),
    ...(entry.fields ? { fields: bound(entry.fields) } : {}),
    ...(entry.managers ? { managers: bound(entry.managers) } : {}),
  };
  await appendAudit({
    redis: params.queues.connection,
    key: `${params.queues.prefix}:audit`,
    entry: bounded,
    ...(params.log ? { log: params.log } : {}),
  });
}

function bound(items: readonly string[]): string[] {
  return items.slice(0, MAX_ITEMS).map((item) => boundedLine(item, MAX_ITEM));
}

/**
 * One line, cut to `max`. Not model's oneLine: an entry keeps its own ends and folds a lone carriage
 * return too, as the stream always has, so entries written before and after read alike.
 */
function boundedLine(text: string, max: number): string {
  return clip(text.replace(/\s*[\r\n]+\s*/g, " "), max);
}
