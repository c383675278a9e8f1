// Turns the parsed YAML documents of one file into the Kubernetes objects they
// declare. A broken object is an error naming file and line, never a silent
// drop: a dropped document would make prune delete the object it meant to
// declare. The rule for what may still be skipped, kept conservative:
//
// - an empty document (`---` alone, only comments) declares nothing, silently;
// - in a file where no document has an `apiVersion` or `kind` key (a values
//   file, CI config), every document is skipped with why, unless one has a
//   `metadata` key: that is an object that lost its apiVersion and kind;
// - in any other file, and in rendered output, every document must be an
//   object: a mapping with string apiVersion, kind and metadata.name, no
//   misspelt identity field, strings in the string maps (labels, annotations,
//   ConfigMap and Secret data), and (for a Secret) base64 `data`. The one
//   exception is `metadata.generateName`, which `kubectl create` accepts and
//   undrift cannot track: skipped with why.
import type { DesiredObject, KubeObject, Source } from "../model/types.ts";
import { objectProblem } from "./object-problem.ts";
import type { ParsedDocument } from "./parse-manifests.ts";
import { RenderError } from "./render-error.ts";

/** A document that declared no object, with the reason. */
export interface SkippedDocument {
  file: string;
  document: number;
  reason: string;
}

/**
 * The objects of `documents` (a `List` expands to its items) with `source.file` = `file`, and what was skipped.
 * `label` names the text the lines count in, when that is not `file` itself (`<file> (kustomize output)`).
 * `rendered` output is always held to the object rule. Throws RenderError `<label>:<line>: document <n>: <why>`.
 */
export function extractObjects({
  documents,
  file,
  label = file,
  rendered = false,
  documentIndex = (doc) => doc.index,
}: {
  documents: ParsedDocument[];
  file: string;
  label?: string;
  rendered?: boolean;
  documentIndex?: (doc: ParsedDocument) => number;
}): { objects: DesiredObject[]; skipped: SkippedDocument[] } {
  const objects: DesiredObject[] = [];
  const skipped: SkippedDocument[] = [];
  const strict =
    rendered || documents.some(({ value }) => isRecord(value) && ("apiVersion" in value || "kind" in value));
  for (const doc of documents) {
    const { value } = doc;
    if (value === null || value === undefined) continue;
    const source: Source = { file, document: documentIndex(doc) };
    const fail = (line: number, why: string): never => {
      throw new RenderError(`${label}:${line}: document ${source.document}: ${why}`, { file: label, line });
    };
    if (!strict && !(isRecord(value) && "metadata" in value)) {
      skipped.push({ ...source, reason: notAnObject(value) });
      continue;
    }
    const items = isRecord(value) && isListKind(value) ? (value.items as unknown[]) : undefined;
    for (const [i, item] of (items ?? [value]).entries()) {
      const problem = objectProblem({ value: item, doc });
      const where = items ? `${String((value as { kind: unknown }).kind)} item ${i}: ` : "";
      if (problem?.skip) skipped.push({ ...source, reason: `${where}${problem.why}` });
      else if (problem) fail(problem.line ?? itemLine(doc, value, item), `${where}${problem.why}`);
      else objects.push({ object: item as KubeObject, source: { ...source } });
    }
  }
  return { objects, skipped };
}

// kubectl reads `kind: List` (what `kubectl get -o yaml` prints) and typed lists such as `ConfigMapList`.
function isListKind(value: Record<string, unknown>): boolean {
  return (
    typeof value.kind === "string" &&
    value.kind.endsWith("List") &&
    Array.isArray(value.items) &&
    !(isRecord(value.metadata) && typeof value.metadata.name === "string")
  );
}

/** The first line of `item`, or of the `items` key of its List, or of the document. */
function itemLine(doc: ParsedDocument, list: unknown, item: unknown): number {
  const own = isRecord(item) ? doc.keyLines.get(item) : undefined;
  if (own && own.size > 0) return Math.min(...own.values());
  return (isRecord(list) && doc.keyLines.get(list)?.get("items")) || doc.line;
}

function notAnObject(value: unknown): string {
  if (!isRecord(value)) return `not a Kubernetes object: the document is a ${describe(value)}, not a mapping`;
  return "not a Kubernetes object: no string apiVersion and kind";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "sequence";
  return typeof value === "string" ? "string" : `${typeof value} value`;
}
