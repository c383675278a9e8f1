// Turns one parsed YAML document into the Kubernetes objects it declares.
// Anything else in a manifest folder (values files, CI config, docs) is not an
// error: it is reported as skipped, with why.
import type { DesiredObject, KubeObject, Source } from "../model/types.ts";

/** A document that declared no object, with the reason. */
export interface SkippedDocument {
  file: string;
  document: number;
  reason: string;
}

/** The objects of one document (a `List` expands to its items) and what was skipped. An empty document yields neither. */
export function extractObjects({ value, source }: { value: unknown; source: Source }): {
  objects: DesiredObject[];
  skipped: SkippedDocument[];
} {
  const objects: DesiredObject[] = [];
  const skipped: SkippedDocument[] = [];
  if (value === null || value === undefined) return { objects, skipped };
  const skip = (reason: string) => skipped.push({ file: source.file, document: source.document, reason });

  if (isRecord(value) && isListKind(value)) {
    (value.items as unknown[]).forEach((item, i) => {
      const problem = objectProblem(item);
      if (problem) skip(`${value.kind} item ${i}: ${problem}`);
      else objects.push({ object: item as KubeObject, source: { ...source } });
    });
    return { objects, skipped };
  }
  const problem = objectProblem(value);
  if (problem) skip(problem);
  else objects.push({ object: value as KubeObject, source: { ...source } });
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

/** Why a value is not a Kubernetes object undrift can track, or undefined when it is one. */
function objectProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return `not a Kubernetes object: the document is a ${describe(value)}, not a mapping`;
  if (typeof value.apiVersion !== "string" || typeof value.kind !== "string") {
    return "not a Kubernetes object: no string apiVersion and kind";
  }
  const metadata = value.metadata;
  if (!isRecord(metadata) || typeof metadata.name !== "string" || metadata.name === "") {
    if (isRecord(metadata) && typeof metadata.generateName === "string") {
      return `${value.kind} uses metadata.generateName: only objects with a fixed metadata.name can be tracked`;
    }
    return `${value.kind} has no metadata.name`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "sequence";
  return typeof value === "string" ? "string" : `${typeof value} value`;
}
