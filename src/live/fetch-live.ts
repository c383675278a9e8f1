// The live side of a scan, in as few requests as the answer allows, in two steps:
//   listTracked:    one paged LIST by the tracking selector of every listable kind. It needs
//                   only discovery, so it runs while the target renders; it finds the declared
//                   objects and the orphans (of any kind, also kinds Git no longer declares).
//   resolveDesired: declared objects the selector did not return (not labelled yet, or declared
//                   in another version): a LIST of their namespace when several share it, else a GET.
// A kind the identity may not list is a problem for that kind; the rest goes on.
import { keyString, objectKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import type { DesiredObject, KubeObject, ScanProblem } from "../model/types.ts";
import type { ApiResource, ResourceIndex } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import { getObject } from "./get-object.ts";
import type { KubeClient } from "./kube-client.ts";
import { listObjects } from "./list-objects.ts";
import { mapLimit } from "./map-limit.ts";

/** Every object carrying the tracking selector, by keyString, and the kinds that could not be listed, with why. */
export interface Tracked {
  objects: Map<string, KubeObject>;
  unlisted: Map<string, { resource: ApiResource; error: KubeApiError }>;
}

export interface LiveState {
  /** Live objects found for desired ones, by `desiredKey` of the desired object. */
  byDesired: Map<string, KubeObject>;
  /** Desired objects that could not be looked up (forbidden), by the same key. */
  unknown: Set<string>;
  problems: ScanProblem[];
}

// Kinds that carry no configuration and would only cost LISTs.
const neverTracked = new Set(["/Event", "events.k8s.io/Event", "/ComponentStatus", "coordination.k8s.io/Lease"]);
const namespaceListThreshold = 3;
const kindOf = (r: Pick<ApiResource, "group" | "kind">) => `${r.group}/${r.kind}`;

export const desiredKey = (o: KubeObject) => `${o.apiVersion}|${keyString(objectKey(o))}`;

const forbidden = (error: unknown): boolean =>
  error instanceof KubeApiError && (error.status === 403 || error.status === 401);

export async function listTracked(params: {
  client: KubeClient;
  index: ResourceIndex;
  selector: string;
  concurrency?: number;
}): Promise<Tracked> {
  const tracked: Tracked = { objects: new Map(), unlisted: new Map() };
  const kinds = params.index.listable().filter((r) => !neverTracked.has(kindOf(r)));
  await mapLimit(kinds, params.concurrency ?? 8, async (resource) => {
    try {
      const items = await listObjects({ client: params.client, resource, labelSelector: params.selector });
      for (const o of items) tracked.objects.set(keyString(objectKey(o)), o);
    } catch (error) {
      // 404: the kind went away since discovery (a CRD deleted meanwhile). Other API errors are
      // kept: they matter only if Git declares the kind (resolveDesired decides), else they only
      // mean that kind's orphans could not be checked.
      if (!(error instanceof KubeApiError)) throw error;
      if (error.status !== 404) tracked.unlisted.set(kindOf(resource), { resource, error });
    }
  });
  return tracked;
}

function problem(r: ApiResource, error: unknown, what: string, namespace?: string): ScanProblem {
  const why =
    error instanceof KubeApiError
      ? `${error.reason} (${error.status})`
      : error instanceof Error
        ? error.message
        : String(error);
  return { group: r.group, kind: r.kind, ...(namespace ? { namespace } : {}), message: `${what}: ${why}` };
}

export async function resolveDesired(params: {
  client: KubeClient;
  index: ResourceIndex;
  desired: DesiredObject[];
  tracked: Tracked;
  selector: string;
  concurrency?: number;
}): Promise<LiveState> {
  const { client, index, tracked, selector } = params;
  const concurrency = params.concurrency ?? 8;
  const state: LiveState = { byDesired: new Map(), unknown: new Set(), problems: [] };
  const found = (d: DesiredObject, o: KubeObject) => state.byDesired.set(desiredKey(d.object), o);

  const unfound: Array<{ resource: ApiResource; d: DesiredObject }> = [];
  const forbiddenDesired = new Map<ApiResource, DesiredObject[]>();
  for (const d of params.desired) {
    const resource = index.find(d.object.apiVersion, d.object.kind);
    if (!resource) continue; // a kind whose CRD is in this target but not applied yet: missing, nothing to ask
    const live = tracked.objects.get(keyString(objectKey(d.object)));
    if (live?.apiVersion === d.object.apiVersion) found(d, live);
    else if (tracked.unlisted.has(kindOf(resource))) {
      const { error } = tracked.unlisted.get(kindOf(resource))!;
      // A declared kind that failed for another reason than permission fails the scan, to be retried.
      if (!forbidden(error)) throw error;
      forbiddenDesired.set(resource, [...(forbiddenDesired.get(resource) ?? []), d]);
    } else unfound.push({ resource, d });
  }

  // No cluster-wide LIST; an identity bound per namespace may still list each namespace.
  for (const [resource, objects] of forbiddenDesired) {
    const namespaces = resource.namespaced ? [...new Set(objects.map((d) => d.object.metadata.namespace ?? ""))] : [];
    const listed = new Set<string>();
    for (const ns of namespaces) {
      try {
        const items = await listObjects({ client, resource, namespace: ns, labelSelector: selector });
        const byKey = new Map(items.map((o) => [keyString(objectKey(o)), o]));
        for (const d of objects.filter((o) => o.object.metadata.namespace === ns)) {
          const o = byKey.get(keyString(objectKey(d.object)));
          if (o) found(d, o);
          else unfound.push({ resource, d });
        }
        listed.add(ns);
      } catch (error) {
        if (!forbidden(error)) throw error;
        state.problems.push(problem(resource, error, `cannot list ${resource.resource}`, ns));
      }
    }
    if (namespaces.length === 0) {
      state.problems.push(
        problem(resource, tracked.unlisted.get(kindOf(resource))!.error, `cannot list ${resource.resource}`),
      );
    }
    for (const d of objects)
      if (!listed.has(d.object.metadata.namespace ?? "")) state.unknown.add(desiredKey(d.object));
  }

  const batches = new Map<string, typeof unfound>();
  for (const u of unfound) {
    const k = `${u.resource.group}/${u.resource.version}/${u.resource.kind}|${u.d.object.metadata.namespace ?? ""}`;
    batches.set(k, [...(batches.get(k) ?? []), u]);
  }
  await mapLimit([...batches.values()], concurrency, async (batch) => {
    const { resource } = batch[0]!;
    const namespace = batch[0]!.d.object.metadata.namespace;
    try {
      if (batch.length >= namespaceListThreshold) {
        const items = await listObjects({ client, resource, namespace });
        const byKey = new Map(items.map((o) => [keyString(objectKey(o)), o]));
        for (const { d } of batch) {
          const o = byKey.get(keyString(objectKey(d.object)));
          if (o) found(d, o);
        }
      } else {
        for (const { d } of batch) {
          const o = await getObject({ client, resource, object: d.object });
          if (o) found(d, o);
        }
      }
    } catch (error) {
      if (!forbidden(error)) throw error;
      state.problems.push(
        problem(
          resource,
          error,
          `cannot read ${objectLabel(objectKey(batch[0]!.d.object), { spelling: "group" })}`,
          namespace,
        ),
      );
      for (const { d } of batch) state.unknown.add(desiredKey(d.object));
    }
  });

  // Orphans among kinds that could not be listed cannot be seen: say so, once per reason.
  const declaredKinds = new Set([...forbiddenDesired.keys()].map(kindOf));
  const byReason = new Map<string, string[]>();
  for (const { resource: r, error } of tracked.unlisted.values()) {
    if (declaredKinds.has(kindOf(r))) continue;
    const reason = forbidden(error) ? "the identity may not list them" : `${error.reason} (${error.status})`;
    byReason.set(reason, [...(byReason.get(reason) ?? []), r.group ? `${r.resource}.${r.group}` : r.resource]);
  }
  for (const [reason, kinds] of byReason) {
    state.problems.push({
      group: "",
      kind: "*",
      message: `orphans not checked among ${kinds.sort().join(", ")}: ${reason}`,
    });
  }
  return state;
}
