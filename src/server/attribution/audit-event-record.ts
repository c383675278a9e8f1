// The audit receiver's reading of one `audit.k8s.io/v1` EventList, as a
// kube-apiserver's audit webhook backend posts it: each finished write (stage
// ResponseComplete, a 2xx answer, not a dry run) becomes the same WriteRecord
// the admission recorder keeps: who (user, groups), what (object, verb,
// subresource, the field manager from the request's query), how (user
// agent), where from (the first source IP), when, and which fields it
// changed. Reads and the stages before the answer are skipped before anything
// else is looked at. Only the fields named here are read: of requestObject (a
// patch's body, at level Request or RequestResponse) only the paths it names
// are kept, never a value (a Secret's data among them); responseObject is never
// touched; fields a newer apiserver adds are ignored, so a rolling upgrade
// keeps being recorded.
import { EVERY_FIELD, patchFields } from "../../drift/written-fields.ts";
import type { RecordVerb, WriteRecord } from "../../model/write-record.ts";

/** The parts of an audit Event the receiver reads. */
export interface AuditEvent {
  stage?: unknown;
  verb?: unknown;
  requestURI?: unknown;
  user?: { username?: unknown; groups?: unknown };
  sourceIPs?: unknown;
  userAgent?: unknown;
  objectRef?: {
    resource?: unknown;
    namespace?: unknown;
    name?: unknown;
    apiGroup?: unknown;
    subresource?: unknown;
  };
  responseStatus?: { code?: unknown };
  /** A patch's body or a created object, at level Request or above: only its field paths are read. */
  requestObject?: unknown;
  requestReceivedTimestamp?: unknown;
  stageTimestamp?: unknown;
}

/** Why a body is not an EventList, in one line; or its events. */
export type ParsedEventList = { ok: true; events: AuditEvent[] } | { ok: false; reason: string };

/** The body's EventList: `audit.k8s.io/v1`, kind EventList, items an array; anything else is refused. */
export function parseEventList(body: unknown): ParsedEventList {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { ok: false, reason: "expected a JSON object (an audit.k8s.io/v1 EventList)" };
  const list = body as { apiVersion?: unknown; kind?: unknown; items?: unknown };
  if (list.kind !== "EventList") return { ok: false, reason: `kind: expected EventList, got ${shown(list.kind)}` };
  if (list.apiVersion !== "audit.k8s.io/v1")
    return { ok: false, reason: `apiVersion: expected audit.k8s.io/v1, got ${shown(list.apiVersion)}` };
  if (!Array.isArray(list.items)) return { ok: false, reason: "items: expected a list of audit events" };
  const bad = list.items.findIndex((item) => typeof item !== "object" || item === null || Array.isArray(item));
  if (bad !== -1) return { ok: false, reason: `items[${bad}]: expected an audit event (an object)` };
  return { ok: true, events: list.items as AuditEvent[] };
}

// The reason goes back to the sender and into a log line: a value is shown only when it looks like a kind or an
// apiVersion, else only its type, so no other content of a body reaches the log.
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  return typeof value === "string" && /^[A-Za-z0-9./-]{1,63}$/.test(value) ? JSON.stringify(value) : typeof value;
}

const VERBS: Record<string, RecordVerb> = { create: "create", update: "update", patch: "patch", delete: "delete" };

/** Whether an event is a finished write worth reading further: the cheap first test, before anything else. */
export function isFinishedWrite(event: AuditEvent): boolean {
  return typeof event.verb === "string" && VERBS[event.verb] !== undefined && event.stage === "ResponseComplete";
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

/** The group and resource an event's object is served under, as the kind lookup takes them. */
export function resourceOf(event: AuditEvent): { group: string; resource: string } | undefined {
  const resource = str(event.objectRef?.resource);
  return resource ? { group: str(event.objectRef?.apiGroup) ?? "", resource } : undefined;
}

/**
 * The record of one event, or undefined for what is no recorded write: a read, an earlier stage, a failed or
 * dry-run request, a nameless object (a deletecollection), or a resource whose kind `kindOf` does not know.
 */
export function recordOfEvent(
  event: AuditEvent,
  cluster: string,
  kindOf: (group: string, resource: string) => string | undefined,
): WriteRecord | undefined {
  if (!isFinishedWrite(event)) return undefined;
  const code = event.responseStatus?.code;
  if (typeof code === "number" && (code < 200 || code >= 300)) return undefined;
  const query = queryOf(event.requestURI);
  if (query.has("dryRun")) return undefined;
  const ref = resourceOf(event);
  const name = str(event.objectRef?.name);
  const username = str(event.user?.username);
  const at = Date.parse(str(event.requestReceivedTimestamp) ?? str(event.stageTimestamp) ?? "");
  if (!ref || !name || !username || !Number.isFinite(at)) return undefined;
  const kind = kindOf(ref.group, ref.resource);
  if (!kind) return undefined;
  const groups = Array.isArray(event.user?.groups) ? event.user.groups.filter((g) => typeof g === "string") : [];
  const record: WriteRecord = {
    cluster,
    object: { group: ref.group, kind, namespace: str(event.objectRef?.namespace) ?? "", name },
    verb: VERBS[event.verb as string]!,
    username,
    groups,
    at: new Date(at).toISOString(),
    via: "audit",
  };
  const optional = {
    subresource: str(event.objectRef?.subresource),
    // kubectl and the other clients name their manager in the query (?fieldManager=kubectl-patch): the join's exact fit.
    fieldManager: str(query.get("fieldManager")),
    userAgent: str(event.userAgent),
    sourceIP: Array.isArray(event.sourceIPs) ? str(event.sourceIPs[0]) : undefined,
  };
  for (const [field, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(record, { [field]: value });
  Object.assign(record, writtenOf(record.verb, event.requestObject));
  return record;
}

// A patch names what it changes; a create writes every field. An update's body is the whole new object and its
// old one is not in the event, so which fields it changed is not known, and the record says nothing.
function writtenOf(verb: RecordVerb, body: unknown) {
  if (verb === "create") return EVERY_FIELD;
  if (verb === "patch" && body !== undefined && body !== null) return patchFields(body);
  return {};
}

function queryOf(uri: unknown): URLSearchParams {
  if (typeof uri !== "string") return new URLSearchParams();
  const at = uri.indexOf("?");
  return new URLSearchParams(at === -1 ? "" : uri.slice(at + 1));
}
