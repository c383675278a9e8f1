// How objects and problems are named for people in every output, so text,
// markdown, errors and logs agree: one function, objectLabel, and its spellings.
import type { ResourceReport, Source } from "./types.ts";

/** The identity fields every report and record carries (apiVersion, kind, namespace, name). */
export type ObjectRef = Pick<ResourceReport, "apiVersion" | "kind" | "namespace" | "name">;

/** What has a group instead of a version: an object's key, a problem (a whole kind when it names no object). */
export interface GroupRef {
  group: string;
  kind: string;
  namespace?: string;
  name?: string;
}

/**
 * How objectLabel spells an object, by what the caller has of it:
 *   apiVersion (the default): a record or report, `apps/v1 Deployment shop/web`, `v1 Namespace infra`;
 *   group: an object's key, which has no version, `apps/Deployment shop/web`, `ConfigMap shop/app`;
 *   resource: what could not be compared, as kubectl names a resource (two groups may share a kind),
 *     `Certificate.cert-manager.io infra/web-tls`, or the kind alone when it names no object.
 */
export type LabelSpelling = "apiVersion" | "group" | "resource";

/** The one spelling of an object for people (options as an object, so `list.map(objectLabel)` spells the default). */
export function objectLabel(ref: ObjectRef): string;
export function objectLabel(ref: GroupRef, options: { spelling: "group" | "resource" }): string;
export function objectLabel(ref: ObjectRef | GroupRef, options: { spelling?: LabelSpelling } = {}): string {
  const spelling = options.spelling ?? "apiVersion";
  const name = objectName({ namespace: ref.namespace, name: ref.name ?? "" });
  if (spelling === "apiVersion") return `${(ref as ObjectRef).apiVersion} ${ref.kind} ${name}`;
  const { group, kind } = ref as GroupRef;
  if (spelling === "group") return `${group ? `${group}/${kind}` : kind} ${name}`;
  const resource = group ? `${kind}.${group}` : kind;
  return ref.name ? `${resource} ${name}` : resource;
}

/** `shop/web`, or `web` for a cluster-scoped object. */
export function objectName(ref: Pick<ObjectRef, "namespace" | "name">): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

/** `apps.v1.Deployment.shop.web`: the file name `kubectl diff` gives an object, used in diff headers. */
export function objectFileName(ref: ObjectRef): string {
  return [ref.apiVersion.replace("/", "."), ref.kind, ref.namespace, ref.name].filter(Boolean).join(".");
}

/** `infra/config.yaml#0`: the file and document an object was declared in. */
export function sourceLabel(source: Source): string {
  return `${source.file}#${source.document}`;
}
