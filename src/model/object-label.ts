// How objects and problems are named in every output, so text, markdown and
// logs agree on one spelling (`apps/v1 Deployment shop/web`).
import type { ResourceReport, ScanProblem, Source } from "./types.ts";

/** The identity fields every report and record carries (apiVersion, kind, namespace, name). */
export type ObjectRef = Pick<ResourceReport, "apiVersion" | "kind" | "namespace" | "name">;

/** `apps/v1 Deployment shop/web`, or `v1 Namespace infra` for a cluster-scoped object. */
export function objectLabel(ref: ObjectRef): string {
  return `${ref.apiVersion} ${ref.kind} ${objectName(ref)}`;
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

/** `Certificate.cert-manager.io infra/web-tls`: the group is kept because two groups may share a kind. */
export function problemLabel(problem: ScanProblem): string {
  const kind = problem.group ? `${problem.kind}.${problem.group}` : problem.kind;
  return problem.name ? `${kind} ${objectName({ namespace: problem.namespace, name: problem.name })}` : kind;
}
