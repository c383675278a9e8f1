// Where an object sits in the document its source names: the document itself,
// or one item of a `List` document.
import type { FieldPath } from "../../drift/field-path.ts";
import type { KubeObject } from "../../model/types.ts";

type Json = unknown;
const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const nameOf = (v: Json) => (isRecord(v) && isRecord(v.metadata) ? String(v.metadata.name ?? "") : "");

/** The path prefix to the object in the document's value, or undefined when the document does not declare it. */
export function objectInDocument(value: Json, object: KubeObject): { prefix: FieldPath; item?: number } | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.kind === "string" && value.kind.endsWith("List") && Array.isArray(value.items)) {
    const items = value.items;
    const sameKind = (item: Json) => isRecord(item) && item.kind === object.kind;
    let index = items.findIndex((item) => sameKind(item) && nameOf(item) === object.metadata.name);
    // kustomize's namePrefix/nameSuffix: the declared name is part of the rendered one.
    if (index < 0) index = items.findIndex((item) => sameKind(item) && object.metadata.name.includes(nameOf(item)));
    return index < 0 ? undefined : { prefix: ["f:items", `i:${index}`], item: index };
  }
  return value.kind === object.kind ? { prefix: [] } : undefined;
}
