// One write to a tracked object as the cluster recorded it (its admission
// recorder or its audit webhook backend): the metadata the drift engine joins
// to managedFields to name the person behind a field. Never a body: of what
// the write changed, only the paths of its fields (drift/written-fields.ts).
import type { ObjectKey } from "./types.ts";

export const recordVerbs = ["create", "update", "patch", "delete"] as const;
export type RecordVerb = (typeof recordVerbs)[number];

/** One write to a tracked object, as metadata only. */
export interface WriteRecord {
  cluster: string;
  object: ObjectKey;
  verb: RecordVerb;
  subresource?: string;
  username: string;
  groups: string[];
  /** `namespace:name` when the username is a service account's (`system:serviceaccount:ns:name`). */
  serviceAccount?: string;
  /** The field manager the request named (admission requests carry it in their options). */
  fieldManager?: string;
  /** The client's User-Agent: audit events carry it, admission requests do not. */
  userAgent?: string;
  sourceIP?: string;
  /**
   * JSON pointers of the fields the write changed (`""`: all of them, a create), never their values; absent when
   * the recorder could not tell (an audit event at level Metadata, a PUT seen by audit, a record from before).
   */
  fields?: string[];
  /** Pointers under which the write changed something, not known which (a list it resized or patched by key). */
  within?: string[];
  /** When the write was seen, ISO 8601. */
  at: string;
  /** Which of the cluster's records it came from. */
  via: "admission" | "audit";
}

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** `ns:name` of a service account's username, else undefined. */
export function serviceAccountOf(username: string): string | undefined {
  const match = SERVICE_ACCOUNT.exec(username);
  return match ? `${match[1]}:${match[2]}` : undefined;
}
