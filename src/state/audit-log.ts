// The audit trail: every detection and action (scan result, pull request opened,
// updated or closed, revert applied, heal, prune, refusal) as one entry of a
// Redis stream (XADD undrift:audit) and one structured log line. An entry says
// who did what to which objects and fields, never a value: it has no field a
// value could go in, and the schema refuses any field it does not list.
// Entries are capped (MAXLEN ~), so the stream keeps the recent past, not all of it.
//
//   await appendAudit({ redis, entry: { event: "pr-opened", repo, target, cluster, objects, fields, managers, actor, outcome } });
//   const records = await readAudit({ redis, repo: "acme/gitops", since: parseSince("24h") });
import type { Redis } from "ioredis";
import { z } from "zod";
import { UndriftError } from "../model/undrift-error.ts";
import type { QueueLog } from "../queue/queue-log.ts";

/** The stream's key. */
export const AUDIT_STREAM = "undrift:audit";
/** About how many entries the stream keeps; older ones are trimmed as new ones arrive. */
export const AUDIT_MAX_ENTRIES = 100_000;

const line = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\r\n]*$/, { error: "expected one line" });
const names = z.array(line(512)).max(1000).default([]);

/** One audit entry as the caller gives it; secrets must already be masked (there is no place for values). */
export const auditEntrySchema = z.strictObject({
  event: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, { error: "expected a kebab-case event name" })
    .describe("What happened: scan, pr-opened, pr-updated, pr-closed, revert-applied, heal, prune, refusal, ..."),
  repo: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/, { error: "expected owner/name" }),
  target: line(63).optional(),
  cluster: line(253).optional(),
  revision: line(64).optional().describe("The commit the action concerned."),
  objects: names.describe("The objects concerned, as Kind/namespace/name."),
  fields: names.describe("The fields concerned, as Kind/namespace/name:/json/pointer or bare pointers."),
  managers: names.describe("The field managers that made the changes."),
  writers: names.describe(
    "Who made the changes, from the cluster's records of writes: Kind/namespace/name:/pointer by alice (sre) at <time>, or Kind/namespace/name deleted by bob (dev) at <time>.",
  ),
  actor: line(256).describe("Who acted: undrift, or the GitHub user who merged, commented or installed."),
  outcome: line(500).describe("The result in a few words: in-sync, 3 drifted, opened #12, refused: ..."),
  url: z.url().max(2048).optional().describe("Where to see it: the pull request, issue or check run."),
});
/** An entry as written: the lists may be left out. */
export type AuditEntryInput = z.input<typeof auditEntrySchema>;
/** An entry with its lists filled in. */
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** An entry read back, with its stream id and the time Redis recorded it. */
export type AuditRecord = AuditEntry & { id: string; time: string };

/** An entry that cannot be written, or one read back that is not an audit entry. */
export class AuditEntryError extends UndriftError {
  override name = "AuditEntryError";
  // Retried, as before the flag: a write that added nothing may add next time.
  readonly permanent = false;
}

const LIST_FIELDS = ["objects", "fields", "managers", "writers"] as const;

/** Appends `entry` (validated) to the stream and logs it; returns its stream id and time. */
export async function appendAudit(params: {
  redis: Redis;
  entry: AuditEntryInput;
  key?: string;
  maxEntries?: number;
  log?: QueueLog;
}): Promise<{ id: string; time: string }> {
  const parsed = auditEntrySchema.safeParse(params.entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw new AuditEntryError(`audit entry: ${where}${issue?.message ?? "invalid"}`, { cause: parsed.error });
  }
  const entry = parsed.data;
  const flat: string[] = [];
  for (const [field, value] of Object.entries(entry)) {
    if (value === undefined) continue;
    flat.push(field, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const key = params.key ?? AUDIT_STREAM;
  const id = await params.redis.xadd(key, "MAXLEN", "~", params.maxEntries ?? AUDIT_MAX_ENTRIES, "*", ...flat);
  if (id === null) throw new AuditEntryError(`audit entry: ${key}: XADD added nothing`);
  const time = timeOfId(id);
  params.log?.info({ audit: { ...entry, time } }, `audit: ${entry.event} ${entry.repo} ${entry.outcome}`);
  return { id, time };
}

/**
 * The latest `limit` entries (default 1000), oldest first, of `repo` when given
 * (owner/name, any case), recorded at or after `since` and at or before `until`.
 */
export async function readAudit(params: {
  redis: Redis;
  repo?: string;
  since?: Date;
  until?: Date;
  limit?: number;
  key?: string;
}): Promise<AuditRecord[]> {
  const key = params.key ?? AUDIT_STREAM;
  const limit = params.limit ?? 1000;
  const repo = params.repo?.toLowerCase();
  const start = params.since ? String(params.since.getTime()) : "-";
  let end = params.until ? String(params.until.getTime()) : "+";
  const newestFirst: AuditRecord[] = [];
  // Newest first, a page at a time, so the latest entries come back however long the stream is.
  while (newestFirst.length < limit) {
    const page = await params.redis.xrevrange(key, end, start, "COUNT", 500);
    for (const [id, values] of page) {
      const record = toRecord(key, id, values);
      if (repo === undefined || record.repo.toLowerCase() === repo) newestFirst.push(record);
      if (newestFirst.length === limit) break;
    }
    const last = page.at(-1);
    if (page.length < 500 || last === undefined) break;
    end = `(${last[0]}`;
  }
  return newestFirst.reverse();
}

function toRecord(key: string, id: string, values: string[]): AuditRecord {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i + 1 < values.length; i += 2) raw[values[i]!] = values[i + 1];
  try {
    for (const field of LIST_FIELDS) if (typeof raw[field] === "string") raw[field] = JSON.parse(raw[field]);
  } catch (error) {
    throw new AuditEntryError(`${key} ${id}: not an audit entry: ${(error as Error).message}`, { cause: error });
  }
  const parsed = auditEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditEntryError(`${key} ${id}: not an audit entry: ${issue?.path.join(".")}: ${issue?.message}`, {
      cause: parsed.error,
    });
  }
  return { id, time: timeOfId(id), ...parsed.data };
}

// A stream id is `<milliseconds>-<sequence>`, the time Redis added the entry.
function timeOfId(id: string): string {
  return new Date(Number(id.split("-")[0])).toISOString();
}
