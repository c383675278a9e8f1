// Why a decoded document is not a Kubernetes object undrift can track, with
// the line of the field at fault. Never quotes a Secret's value.
import { editDistance } from "../model/edit-distance.ts";
import type { ParsedDocument } from "./parse-manifests.ts";

/** What is wrong, where (when a field is at fault), and whether it is only a skip (generateName). */
export interface ObjectProblem {
  why: string;
  line?: number;
  skip?: boolean;
}

// The identity fields: a misspelling there loses the object, so it is named. Other top-level
// fields are left to the API server's validation, since custom resources may have any.
const identityFields = ["apiVersion", "kind", "metadata"];

/** The problem of `value` (one document, or one item of a List, of `doc`), or undefined when it is an object. */
export function objectProblem({ value, doc }: { value: unknown; doc: ParsedDocument }): ObjectProblem | undefined {
  if (!isRecord(value)) return { why: `the document is a ${describe(value)}, not a Kubernetes object` };
  const lines = doc.keyLines.get(value);
  const lineOf = (key: string) => lines?.get(key);
  for (const key of Object.keys(value)) {
    const meant = identityFields.find((field) => field !== key && isMisspelt(key, field, field in value));
    if (meant) return { why: `unknown top-level field "${key}" (did you mean "${meant}"?)`, line: lineOf(key) };
  }
  const missing = ["apiVersion", "kind"].filter((field) => typeof value[field] !== "string" || value[field] === "");
  if (missing.length > 0) return { why: `no ${missing.join(" and ")}`, line: lineOf(missing[0]!) };
  const kind = value.kind as string;
  const metadata = value.metadata;
  if (!isRecord(metadata) || typeof metadata.name !== "string" || metadata.name === "") {
    if (isRecord(metadata) && typeof metadata.generateName === "string") {
      return {
        why: `${kind} uses metadata.generateName: only objects with a fixed metadata.name can be tracked`,
        skip: true,
      };
    }
    return { why: `${kind} has no metadata.name`, line: lineOf("metadata") };
  }
  if (kind === "Secret" && value.apiVersion === "v1") return secretProblem({ value, doc, name: metadata.name });
  return undefined;
}

// The API server decodes Secret `data` as standard base64 (padded); anything else is a manifest error, not drift.
function secretProblem({ value, doc, name }: { value: Record<string, unknown>; doc: ParsedDocument; name: string }) {
  const data = value.data;
  if (data === undefined || data === null) return undefined;
  const at = doc.keyLines.get(value)?.get("data");
  if (!isRecord(data)) return { why: `Secret "${name}": data is not a mapping of keys to base64 strings`, line: at };
  const lines = doc.keyLines.get(data);
  for (const [key, encoded] of Object.entries(data)) {
    if (encoded === null || (typeof encoded === "string" && isBase64(encoded))) continue;
    return { why: `Secret "${name}": data.${key} is not valid base64`, line: lines?.get(key) ?? at };
  }
  return undefined;
}

function isBase64(text: string): boolean {
  // Go's decoder skips line breaks, as a folded block scalar may hold them.
  const compact = text.replace(/[\r\n]/g, "");
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact);
}

/** `key` is `field` in another case, or (when `field` itself is absent) within a small edit of it. */
function isMisspelt(key: string, field: string, fieldPresent: boolean): boolean {
  if (key.toLowerCase() === field.toLowerCase()) return true;
  if (fieldPresent) return false;
  return editDistance(key.toLowerCase(), field.toLowerCase()) <= (field.length > 4 ? 2 : 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "sequence";
  return typeof value === "string" ? "string" : `${typeof value} value`;
}
