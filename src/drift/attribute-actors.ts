// The person behind each drifted field: a field's managedFields entry (manager,
// time) joined to the cluster's record of the write that produced it. A
// manager's entry is stamped with its last write, whichever field that write
// changed, so two people's `kubectl patch`es seconds apart share one entry
// and one time; the record's own change decides. The writer is the newest
// write that fits the manager (field manager or user agent) and changed that
// field, at or before the entry's time, and it is `exact`. Never guessed: a
// newer write by someone else that may have changed the field too (it does
// not say which fields it changed) leaves the field with nobody; a write that
// does not say is taken only when it is the one person writing near the
// field's time, and said to be `likely`. A controller's write is matched to
// the controller's own record, so it stays the controller's.
// A missing object says who deleted it only when the newest record of it is
// its deletion: a later write means the deletion went unrecorded (a namespace
// deleted, the recorder down), so nobody is named.
import { groupOf, keyString } from "../model/object-key.ts";
import type { Actor, Change, DriftReport, ObjectKey, ResourceReport } from "../model/types.ts";
import type { WriteRecord } from "../model/write-record.ts";
import { coverage } from "./written-fields.ts";

/** How far a record's time may be from a field's managedFields time: the API server stamps both within one request. */
export const MATCH_WINDOW_MS = 5000;

/**
 * Whether a client's User-Agent fits a field manager: kubectl's managers (kubectl-patch, kubectl-edit,
 * kubectl-client-side-apply, kubectl) come from `kubectl/...`; any other manager is named by the API server after
 * its client's agent (`helm` from `Helm/3.17`, `kube-controller-manager` from `kube-controller-manager/v1.34`).
 */
export function agentFitsManager(userAgent: string, manager: string): boolean {
  const product = (userAgent.split("/")[0] ?? "").trim().toLowerCase();
  const name = manager.toLowerCase();
  if (product.length < 2) return false;
  if (name === "kubectl" || name.startsWith("kubectl-")) return product === "kubectl";
  return name.startsWith(product) || product.startsWith(name);
}

/** Milliseconds from a record to the second a managedFields time names (that time is cut to whole seconds). */
function distance(recordMs: number, fieldSecondMs: number): number {
  if (recordMs < fieldSecondMs) return fieldSecondMs - recordMs;
  return Math.max(0, recordMs - (fieldSecondMs + 999));
}

type Fit = "exact" | "unknown" | "other";

function fitOf(record: WriteRecord, manager: string): Fit {
  if (record.fieldManager !== undefined) return record.fieldManager === manager ? "exact" : "other";
  if (record.userAgent !== undefined) return agentFitsManager(record.userAgent, manager) ? "exact" : "other";
  return "unknown";
}

/** The actor of one change among its object's records, or undefined when no record is known to have written it. */
export function actorFor(change: Change, records: readonly WriteRecord[]): Actor | undefined {
  if (!change.manager || !change.changedAt) return undefined;
  const fieldMs = Date.parse(change.changedAt);
  if (!Number.isFinite(fieldMs)) return undefined;
  // Newest first, none later than the entry's time allows: the field's writer wrote no later than that.
  const writes = records
    .filter((r) => r.verb !== "delete" && r.subresource !== "status")
    .map((record) => ({ record, ms: Date.parse(record.at), fit: fitOf(record, change.manager!) }))
    .filter((c) => Number.isFinite(c.ms) && c.fit !== "other" && c.ms <= fieldMs + 999 + MATCH_WINDOW_MS)
    .sort((a, b) => b.ms - a.ms);
  const unsure: WriteRecord[] = [];
  for (const { record, fit } of writes) {
    const covers = coverage(record, change.path);
    if (covers === "no") continue;
    if (covers === "yes" && fit === "exact") {
      // A newer write by someone else that may have changed this field too: either could be it.
      if (unsure.some((u) => u.username !== record.username)) return undefined;
      return actorOf(record, "exact");
    }
    unsure.push(record);
  }
  // No write is known to have changed the field: by time alone, and only when one person wrote near it.
  const near = unsure.filter((r) => distance(Date.parse(r.at), fieldMs) <= MATCH_WINDOW_MS);
  const people = new Set(near.map((r) => r.username));
  return near.length > 0 && people.size === 1 ? actorOf(near[0]!, "likely") : undefined;
}

function actorOf(record: WriteRecord, confidence: Actor["confidence"]): Actor {
  const actor: Actor = { username: record.username, groups: [...record.groups], at: record.at, confidence };
  if (record.serviceAccount) actor.serviceAccount = record.serviceAccount;
  if (record.userAgent) actor.userAgent = record.userAgent;
  if (record.sourceIP) actor.sourceIP = record.sourceIP;
  return actor;
}

/** The key the records of a reported object are kept under. */
export function resourceKey(resource: Pick<ResourceReport, "apiVersion" | "kind" | "namespace" | "name">): ObjectKey {
  return {
    group: groupOf(resource.apiVersion),
    kind: resource.kind,
    namespace: resource.namespace ?? "",
    name: resource.name,
  };
}

/** Who deleted a missing object: the newest record's writer when that record is a delete of the whole object. */
export function deleterOf(records: readonly WriteRecord[]): Actor | undefined {
  const newest = records
    .filter((r) => r.subresource === undefined && Number.isFinite(Date.parse(r.at)))
    .reduce<WriteRecord | undefined>(
      (best, r) => (!best || Date.parse(r.at) >= Date.parse(best.at) ? r : best),
      undefined,
    );
  return newest?.verb === "delete" ? actorOf(newest, "exact") : undefined;
}

/** Whether a report entry is one whose records `attributeActors` reads: a drifted field, or a missing object. */
export function wantsRecords(resource: ResourceReport): boolean {
  return resource.changes.length > 0 || resource.status === "missing";
}

/**
 * The report with an actor on every change a record fits, and on every missing object whose deletion was recorded;
 * `recordsOf` gives an object's records by its key string.
 */
export function attributeActors(report: DriftReport, recordsOf: (key: string) => readonly WriteRecord[]): DriftReport {
  const resources = report.resources.map((resource) => {
    if (!wantsRecords(resource)) return resource;
    const records = recordsOf(keyString(resourceKey(resource)));
    if (records.length === 0) return resource;
    if (resource.status === "missing") {
      const deletedBy = deleterOf(records);
      return deletedBy ? { ...resource, deletedBy } : resource;
    }
    const changes = resource.changes.map((change) => {
      const actor = actorFor(change, records);
      return actor ? { ...change, actor } : change;
    });
    return { ...resource, changes };
  });
  return { ...report, resources };
}
