// The last step of rendering, pure: give each object the namespace it will
// live in (as kubectl would), the tracking label, and prove the target
// declares every object once. Scope comes from cluster discovery, injected.

import { groupKindKey, groupOf, keyString, kindKeyOf, objectKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import type { DesiredObject, KubeObject, Source } from "../model/types.ts";
import { UndriftError } from "../model/undrift-error.ts";

export type Scope = "Namespaced" | "Cluster";

/** A kind neither the cluster serves nor a CustomResourceDefinition of the target defines. */
export class UnknownKindError extends UndriftError {
  override name = "UnknownKindError";
  readonly permanent = true;
}

/**
 * A kind of an API group the server could not discover (an APIService whose service is down): not unknown,
 * only unseen for now, and a later scan may see it.
 */
export class UnavailableKindError extends UndriftError {
  override name = "UnavailableKindError";
  readonly permanent = false;
}

/** Two rendered objects with one identity; applying both would make the second silently win. */
export class DuplicateObjectError extends UndriftError {
  override name = "DuplicateObjectError";
  readonly permanent = true;
}

/** Copies of `objects` with namespaces settled and the tracking label set; throws on unknown kinds and duplicates. */
export function finalizeDesired({
  objects,
  namespace,
  trackingLabel,
  scopeOf,
  unavailable = [],
}: {
  objects: DesiredObject[];
  /** The target's namespace for namespaced objects that name none; "default" when the target has none, like kubectl. */
  namespace?: string;
  /** Set on every object when the target tracks by undrift's own label. */
  trackingLabel?: { key: string; value: string };
  scopeOf: (apiVersion: string, kind: string) => Scope | undefined;
  /** The `group/version`s discovery could not read (ResourceIndex.unavailable). */
  unavailable?: readonly string[];
}): DesiredObject[] {
  const crdScopes = definedScopes(objects);
  const bySource = new Map<string, Source>();
  return objects.map(({ object, source, sensitive }) => {
    const scope = scopeOf(object.apiVersion, object.kind) ?? crdScopes.get(kindKeyOf(object));
    if (!scope && unavailable.includes(object.apiVersion)) {
      const [group, version] = [groupOf(object.apiVersion), object.apiVersion.split("/")[1]];
      throw new UnavailableKindError(
        `${source.file}: document ${source.document}: ${object.apiVersion} ${object.kind} "${object.metadata.name}": API group ${object.apiVersion} is unavailable: the API server could not discover it (check APIService ${version}.${group})`,
      );
    }
    if (!scope) {
      throw new UnknownKindError(
        `${source.file}: document ${source.document}: ${object.apiVersion} ${object.kind} "${object.metadata.name}": unknown kind: the cluster does not serve it and no CustomResourceDefinition in this target defines it`,
      );
    }
    const copy = structuredClone(object);
    if (scope === "Cluster") delete copy.metadata.namespace;
    else copy.metadata.namespace ||= namespace || "default";
    if (trackingLabel) copy.metadata.labels = { ...copy.metadata.labels, [trackingLabel.key]: trackingLabel.value };

    const key = objectKey(copy);
    const first = bySource.get(keyString(key));
    if (first) {
      throw new DuplicateObjectError(
        `duplicate object ${objectLabel(key, { spelling: "group" })}: ${first.file} (document ${first.document}) and ${source.file} (document ${source.document})`,
      );
    }
    bySource.set(keyString(key), source);
    return { object: copy, source: { ...source }, ...(sensitive ? { sensitive: [...sensitive] } : {}) };
  });
}

/** Scopes of the kinds the target's own CRDs define, by `group/Kind`. */
function definedScopes(objects: DesiredObject[]): Map<string, Scope> {
  const scopes = new Map<string, Scope>();
  for (const { object } of objects) {
    if (groupOf(object.apiVersion) !== "apiextensions.k8s.io" || object.kind !== "CustomResourceDefinition") continue;
    const spec = (object as KubeObject & { spec?: { group?: unknown; scope?: unknown; names?: { kind?: unknown } } })
      .spec;
    if (typeof spec?.group !== "string" || typeof spec.names?.kind !== "string") continue;
    if (spec.scope === "Namespaced" || spec.scope === "Cluster")
      scopes.set(groupKindKey(spec.group, spec.names.kind), spec.scope);
  }
  return scopes;
}
