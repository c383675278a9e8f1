// Who wrote a tracked object, as the cluster told undrift (its admission
// recorder, or its audit webhook backend): one Redis sorted set per object,
// scored by the write's time, so "who changed this field at 10:02" is one
// range read. Only metadata is kept: who, what (and the paths of the fields
// it changed, never their values), how, where from, when. A
// record is rebuilt field by field from what the caller gives, so a request
// or response body (which may carry a Secret's data) has nowhere to go and is
// dropped on arrival. Each object keeps its newest `perObject` records, none
// older than the retention.
//
//   const records = writeRecords({ redis, prefix });
//   await records.add({ cluster: "prod", object, verb: "patch", username: "alice", groups: ["sre"], at });
//   const seen = await records.forObject("prod", object);
import type { Redis } from "ioredis";
import { MAX_POINTER, MAX_WRITTEN_FIELDS } from "../drift/written-fields.ts";
import { keyString } from "../model/object-key.ts";
import type { ObjectKey } from "../model/types.ts";
import { serviceAccountOf, type WriteRecord } from "../model/write-record.ts";

/** How long a record is kept: 30 days, long enough for a monthly review of who changed what. */
export const RECORD_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** How many records an object keeps: a field's last writer is among the newest. */
export const RECORDS_PER_OBJECT = 50;

export interface WriteRecords {
  add(record: WriteRecord): Promise<void>;
  /** Many at once, in one pipeline: each object trimmed to its bounds once, however many of its records came. */
  addMany(records: readonly WriteRecord[]): Promise<void>;
  /** The object's records, oldest first, within the retention. */
  forObject(cluster: string, object: ObjectKey): Promise<WriteRecord[]>;
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === "string" && value.length > 0 ? value.slice(0, max) : undefined;

/** The record as stored: only the listed fields, each capped in length, so nothing else a caller holds is kept. */
export function metadataOnly(record: WriteRecord): WriteRecord {
  const kept: WriteRecord = {
    cluster: record.cluster,
    object: {
      group: record.object.group,
      kind: record.object.kind,
      namespace: record.object.namespace,
      name: record.object.name,
    },
    verb: record.verb,
    username: text(record.username, 256) ?? "",
    groups: (Array.isArray(record.groups) ? record.groups : [])
      .map((g) => text(g, 256))
      .filter((g): g is string => g !== undefined)
      .slice(0, 32),
    at: record.at,
    via: record.via,
  };
  const optional = {
    subresource: text(record.subresource, 64),
    serviceAccount: serviceAccountOf(kept.username),
    fieldManager: text(record.fieldManager, 128),
    userAgent: text(record.userAgent, 256),
    sourceIP: text(record.sourceIP, 64),
  };
  for (const [field, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(kept, { [field]: value });
  // Paths only: a list of strings within the bounds the recorder keeps to, else the fields are not known.
  const fields = pointers(record.fields);
  if (fields) {
    const within = pointers(record.within) ?? [];
    if (fields.length + within.length <= MAX_WRITTEN_FIELDS) {
      kept.fields = fields;
      if (within.length > 0) kept.within = within;
    }
  }
  return kept;
}

function pointers(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_WRITTEN_FIELDS) return undefined;
  const kept = value.filter((p): p is string => typeof p === "string" && p.length <= MAX_POINTER);
  return kept.length === value.length ? kept : undefined;
}

export function writeRecords(params: {
  redis: Redis;
  prefix: string;
  retentionMs?: number;
  perObject?: number;
  now?: () => number;
}): WriteRecords {
  const { redis } = params;
  const retentionMs = params.retentionMs ?? RECORD_RETENTION_MS;
  const perObject = params.perObject ?? RECORDS_PER_OBJECT;
  const now = params.now ?? Date.now;
  // The cluster name first: one cluster's records never answer for another's object of the same name.
  const keyOf = (cluster: string, object: ObjectKey) =>
    `${params.prefix}:write-records:${cluster}:${keyString(object)}`;
  return {
    async add(record) {
      const kept = metadataOnly(record);
      const at = Date.parse(kept.at);
      if (!Number.isFinite(at)) return;
      const key = keyOf(kept.cluster, kept.object);
      await redis
        .multi()
        .zadd(key, at, JSON.stringify(kept))
        .zremrangebyscore(key, "-inf", now() - retentionMs)
        .zremrangebyrank(key, 0, -(perObject + 1))
        .pexpire(key, retentionMs)
        .exec();
    },
    async addMany(records) {
      if (records.length === 0) return;
      const pipeline = redis.pipeline();
      const keys = new Set<string>();
      for (const record of records) {
        const kept = metadataOnly(record);
        const at = Date.parse(kept.at);
        if (!Number.isFinite(at)) continue;
        const key = keyOf(kept.cluster, kept.object);
        pipeline.zadd(key, at, JSON.stringify(kept));
        keys.add(key);
      }
      const oldest = now() - retentionMs;
      for (const key of keys)
        pipeline
          .zremrangebyscore(key, "-inf", oldest)
          .zremrangebyrank(key, 0, -(perObject + 1))
          .pexpire(key, retentionMs);
      const results = await pipeline.exec();
      // A pipeline answers each command apart: the first failure stands for the batch.
      const failed = results?.find(([error]) => error !== null);
      if (failed?.[0]) throw failed[0];
    },
    async forObject(cluster, object) {
      const members = await redis.zrangebyscore(keyOf(cluster, object), now() - retentionMs, "+inf");
      return members.map((member) => JSON.parse(member) as WriteRecord);
    },
  };
}
