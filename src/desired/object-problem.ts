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
  const typed = stringMapProblem({ value, doc, name: metadata.name });
  if (typed) return typed;
  if (kind === "Secret" && value.apiVersion === "v1") return secretProblem({ value, doc, name: metadata.name });
  return undefined;
}

// The fields Kubernetes types as maps of strings (or of bytes, sent as base64 strings), with the Go struct that
// holds each: where YAML 1.1 reads `enabled: yes` as a bool or `replicas: 3` as a number, the API server's JSON
// decoder refuses the object, and kubectl says so. Said here, at validate, in kubectl's words, not as drift later.
const stringMaps: { kinds?: string[]; path: [string] | [string, string]; struct: string; bytes?: boolean }[] = [
  { path: ["metadata", "labels"], struct: "ObjectMeta" },
  { path: ["metadata", "annotations"], struct: "ObjectMeta" },
  { kinds: ["ConfigMap"], path: ["data"], struct: "ConfigMap" },
  { kinds: ["ConfigMap"], path: ["binaryData"], struct: "ConfigMap", bytes: true },
  { kinds: ["Secret"], path: ["data"], struct: "Secret", bytes: true },
  { kinds: ["Secret"], path: ["stringData"], struct: "Secret" },
];

/** The first entry of a string map that is not a string (null decodes as "" and passes), named as kubectl names it. */
function stringMapProblem({ value, doc, name }: { value: Record<string, unknown>; doc: ParsedDocument; name: string }) {
  const kind = value.kind as string;
  for (const { kinds, path, struct, bytes } of stringMaps) {
    if (kinds && !(value.apiVersion === "v1" && kinds.includes(kind))) continue;
    const parent = path.length === 2 ? value[path[0]] : value;
    if (!isRecord(parent)) continue;
    const key = path[path.length - 1]!;
    const map = parent[key];
    if (map === undefined || map === null) continue;
    const field = path.join(".");
    const goType = bytes ? "[]uint8" : "string";
    const at = `${kind} "${name}": ${field}`;
    if (!isRecord(map)) {
      const line = doc.keyLines.get(parent)?.get(key);
      return { why: `${at}: ${cannotUnmarshal(map, struct, field, `map[string]${goType}`)}`, line };
    }
    for (const [entry, v] of Object.entries(map)) {
      if (v === null || typeof v === "string") continue;
      const line = doc.keyLines.get(map)?.get(entry) ?? doc.keyLines.get(parent)?.get(key);
      const hint = typeof v === "boolean" ? " (YAML 1.1 reads yes, no, on and off as booleans: quote the value)" : "";
      return { why: `${at}.${entry}: ${cannotUnmarshal(v, struct, field, goType)}${hint}`, line };
    }
  }
  return undefined;
}

/** encoding/json's UnmarshalTypeError, as the API server and kubectl print it (JSON's names for the value). */
function cannotUnmarshal(value: unknown, struct: string, field: string, goType: string): string {
  const json = Array.isArray(value) ? "array" : (jsonNames[typeof value] ?? typeof value);
  return `cannot unmarshal ${json} into Go struct field ${struct}.${field} of type ${goType}`;
}

const jsonNames: Record<string, string> = { boolean: "bool", bigint: "number", object: "object", number: "number" };

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
