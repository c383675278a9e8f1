// What each target's channels were last told, in Redis, so that a message goes
// out per new drift, not per scan:
//   <prefix>:notify:<repo>:<target>   hash: fingerprint (the drift last announced, "" once
//                                      resolved), version (counts those changes: the delivery
//                                      ids of drift and resolved, and which reminders are
//                                      still due), since (when that drift was first seen),
//                                      seen:<event> (a hash of the last heal, fight,
//                                      prune-refused or failing announced), snoozed (the
//                                      object keys left out of that scan's drift as snoozed,
//                                      JSON, so a snooze is told apart from drift that changed)
//   <prefix>:notify-sent:<delivery>    set once a channel accepted the delivery, so a job run
//                                      again (a redelivery, a retry after a lost ack) does not post again
import type { Redis } from "ioredis";

/** What the target's channels last heard. */
export interface TargetNotifyState {
  fingerprint: string;
  version: number;
  since?: string;
  seen: Record<string, string>;
  /** The object keys the last scan left out as snoozed; absent in state written before snoozes were kept. */
  snoozed?: string[];
}

// A delivery's mark outlives any retry schedule (20 minutes) and any redelivery of a kept job (a week).
const SENT_TTL_SECONDS = 8 * 24 * 3600;

export function notifyState(params: { redis: Redis; prefix: string }) {
  const { redis, prefix } = params;
  const key = (repo: string, target: string) => `${prefix}:notify:${repo.toLowerCase()}:${target}`;
  return {
    async get(repo: string, target: string): Promise<TargetNotifyState> {
      const hash = await redis.hgetall(key(repo, target));
      const seen: Record<string, string> = {};
      for (const [field, value] of Object.entries(hash)) {
        if (field.startsWith("seen:")) seen[field.slice(5)] = value;
      }
      return {
        fingerprint: hash.fingerprint ?? "",
        version: Number(hash.version ?? 0),
        ...(hash.since ? { since: hash.since } : {}),
        seen,
        ...(hash.snoozed !== undefined ? { snoozed: JSON.parse(hash.snoozed) as string[] } : {}),
      };
    },
    /** Writes the fields given; a `seen` value of "" forgets that event. */
    async set(
      repo: string,
      target: string,
      update: {
        fingerprint?: string;
        version?: number;
        since?: string;
        seen?: Record<string, string>;
        snoozed?: string[];
      },
    ): Promise<void> {
      const fields: Record<string, string> = {};
      const gone: string[] = [];
      if (update.fingerprint !== undefined) fields.fingerprint = update.fingerprint;
      if (update.version !== undefined) fields.version = String(update.version);
      if (update.since !== undefined) fields.since = update.since;
      if (update.snoozed !== undefined) fields.snoozed = JSON.stringify(update.snoozed);
      for (const [event, value] of Object.entries(update.seen ?? {})) {
        if (value === "") gone.push(`seen:${event}`);
        else fields[`seen:${event}`] = value;
      }
      const multi = redis.multi();
      if (Object.keys(fields).length > 0) multi.hset(key(repo, target), fields);
      if (gone.length > 0) multi.hdel(key(repo, target), ...gone);
      await multi.exec();
    },
    /** Whether `delivery` was accepted by its channel already. */
    async wasSent(delivery: string): Promise<boolean> {
      return (await redis.exists(`${prefix}:notify-sent:${delivery}`)) === 1;
    },
    async markSent(delivery: string): Promise<void> {
      await redis.set(`${prefix}:notify-sent:${delivery}`, new Date().toISOString(), "EX", SENT_TTL_SECONDS);
    },
  };
}

/** The store of notify state and delivery marks. */
export type NotifyState = ReturnType<typeof notifyState>;
