// The admission recorder's reading of one AdmissionReview: who (userInfo), what
// (object, operation, subresource), the field manager the request named (its
// options), and when it arrived. The API server sends no User-Agent and no
// source IP in an AdmissionReview, so these records have neither: the join
// leans on the field manager, the username and the time, and on which fields
// the write changed: the paths where object and oldObject differ. Of the
// objects (a Secret's data among them) only those paths reach the record,
// never a value.
import { changedFields, EVERY_FIELD } from "../../drift/written-fields.ts";
import type { RecordVerb, WriteRecord } from "../../model/write-record.ts";

/** The parts of an `admission.k8s.io/v1` AdmissionReview the recorder reads; everything else is left unread. */
export interface AdmissionReview {
  apiVersion?: string;
  request?: {
    uid?: string;
    kind?: { group?: string; version?: string; kind?: string };
    subResource?: string;
    name?: string;
    namespace?: string;
    operation?: string;
    userInfo?: { username?: string; groups?: string[] };
    object?: { metadata?: { name?: string } } | null;
    oldObject?: { metadata?: { name?: string } } | null;
    dryRun?: boolean;
    options?: { kind?: string; fieldManager?: string } | null;
  };
}

/** Always allowed: the recorder watches, it never decides. */
export function allowAnswer(review: AdmissionReview) {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: { uid: review.request?.uid ?? "", allowed: true },
  };
}

// Admission has no PATCH operation, and kube-apiserver hands admission a patch's options as UpdateOptions
// (seen against the real server in attribution-recorder.test.ts), so a kubectl patch is recorded as an update;
// the field manager (`kubectl-patch`) still says how it was written. PatchOptions, if a server sends them, says patch.
function verbOf(operation: string | undefined, optionsKind: string | undefined): RecordVerb | undefined {
  if (operation === "CREATE") return "create";
  if (operation === "DELETE") return "delete";
  if (operation === "UPDATE") return optionsKind === "PatchOptions" ? "patch" : "update";
  return undefined;
}

/** The record of one admitted write, or undefined for what is no write (a dry run, a CONNECT, a nameless object). */
export function recordOf(review: AdmissionReview, cluster: string, at: Date): WriteRecord | undefined {
  const request = review.request;
  if (!request || request.dryRun) return undefined;
  const verb = verbOf(request.operation, request.options?.kind);
  const kind = request.kind?.kind;
  const name = request.name || request.object?.metadata?.name || request.oldObject?.metadata?.name;
  const username = request.userInfo?.username;
  if (!verb || !kind || !name || !username) return undefined;
  const record: WriteRecord = {
    cluster,
    object: { group: request.kind?.group ?? "", kind, namespace: request.namespace ?? "", name },
    verb,
    username,
    groups: request.userInfo?.groups ?? [],
    at: at.toISOString(),
    via: "admission",
  };
  if (request.subResource) record.subresource = request.subResource;
  if (request.options?.fieldManager) record.fieldManager = request.options.fieldManager;
  if (verb === "create") Object.assign(record, EVERY_FIELD);
  else if (verb !== "delete") Object.assign(record, changedFields(request.oldObject, request.object));
  return record;
}
