// The live side of a scan, in as few requests as the answer allows, in three steps:
//   listTracked:    a paged LIST by the tracking selector of every kind that can carry the target's
//                   objects: in full for the kinds the target declares, metadata only for the rest
//                   (they can only hold orphans, and an orphan needs its body only once found).
//                   Those of undeclared kinds start while the target renders.
//   resolveDesired: declared objects the selector did not return (not labelled yet, or declared
//                   in another version): a LIST of their namespace when several share it, else a GET.
//   completeOrphans: the full body of each orphan the metadata found (the report shows it).
// A kind the identity may not list is a problem for that kind; the rest goes on.
import { declaredKeyString, groupKindKey, keyString, objectKey, versionKindKey } from "../model/object-key.ts";
import { objectLabel } from "../model/object-label.ts";
import type { DesiredObject, KubeObject, ScanProblem } from "../model/types.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { type ApiResource, type ResourceIndex, splitApiVersion } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import { getObject } from "./get-object.ts";
import type { KubeClient } from "./kube-client.ts";
import { listObjects } from "./list-objects.ts";
import { mapLimit } from "./map-limit.ts";

/** Every object carrying the tracking selector, by keyString, and the kinds that could not be listed, with why. */
export interface Tracked {
  objects: Map<string, KubeObject>;
  /** Keys of the objects held as metadata only (a kind the target does not declare). */
  partial: Set<string>;
  unlisted: Map<string, { resource: ApiResource; error: KubeApiError }>;
  /** With a worker's watch cache: how many kinds came from its watches, how many were LISTed, and which it may not watch. */
  sources?: ListSources;
}

/** Where one scan's kinds came from (ClusterSession with a WatchCache). */
export interface ListSources {
  watched: number;
  listed: number;
  /** Kinds the identity may list but not watch (or neither): LISTed on every scan. */
  refused: Array<{ resource: ApiResource; refusal: KubeApiError }>;
}

/** One kind's objects carrying the selector; `metadataOnly` asks for PartialObjectMetadata. */
export type ListKind = (resource: ApiResource, metadataOnly: boolean) => Promise<KubeObject[]>;

/** A LIST found a kind gone that the cached discovery still named: discover again, and scan again once. */
export class StaleDiscoveryError extends UndriftError {
  override name = "StaleDiscoveryError";
  readonly permanent = false;
}

export interface LiveState {
  /** Live objects found for desired ones, by `declaredKeyString` of the desired object. */
  byDesired: Map<string, KubeObject>;
  /** Desired objects that could not be looked up (forbidden), by the same key. */
  unknown: Set<string>;
  problems: ScanProblem[];
}

// Kinds that carry no configuration and would only cost LISTs.
const neverTracked = new Set(["/Event", "events.k8s.io/Event", "/ComponentStatus", "coordination.k8s.io/Lease"]);
const namespaceListThreshold = 3;
/** A served resource's `group/Kind`, as `declared` names the kinds a target declares. */
const kindOf = (r: Pick<ApiResource, "group" | "kind">) => groupKindKey(r.group, r.kind);
// The kinds most targets declare: their metadata LISTs go last, so that a target that renders quickly
// has them listed once, in full, rather than twice.
const usuallyDeclared = new Set([
  "/ConfigMap",
  "/Secret",
  "/Service",
  "/ServiceAccount",
  "/Namespace",
  "/PersistentVolumeClaim",
  "apps/Deployment",
  "apps/StatefulSet",
  "apps/DaemonSet",
  "batch/CronJob",
  "batch/Job",
  "networking.k8s.io/Ingress",
  "networking.k8s.io/NetworkPolicy",
  "policy/PodDisruptionBudget",
  "autoscaling/HorizontalPodAutoscaler",
  "rbac.authorization.k8s.io/Role",
  "rbac.authorization.k8s.io/RoleBinding",
  "rbac.authorization.k8s.io/ClusterRole",
  "rbac.authorization.k8s.io/ClusterRoleBinding",
  "apiextensions.k8s.io/CustomResourceDefinition",
]);
const writeVerbs = ["create", "update", "patch"];

/**
 * The kinds that can hold a target's objects: listable, and writable by someone (a kind nobody can create
 * or change, as metrics.k8s.io's, holds no object a person labelled), never events, leases or the like.
 */
export function trackableKinds(index: ResourceIndex): ApiResource[] {
  return index
    .listable()
    .filter((r) => !neverTracked.has(kindOf(r)) && r.verbs.some((verb) => writeVerbs.includes(verb)));
}

const forbidden = (error: unknown): boolean =>
  error instanceof KubeApiError && (error.status === 403 || error.status === 401);

export async function listTracked(params: {
  index: ResourceIndex;
  list: ListKind;
  /** The kinds (`kindOf`) the target declares, known once it renders: those are listed in full. */
  declared: Promise<Set<string>>;
  concurrency?: number;
}): Promise<Tracked> {
  const { index, list } = params;
  const concurrency = params.concurrency ?? 16;
  let declared: Set<string> | undefined;
  const known = params.declared.then((kinds) => {
    declared = kinds;
    return kinds;
  });
  const kinds = trackableKinds(index);
  const ordered = [
    ...kinds.filter((r) => !usuallyDeclared.has(kindOf(r))),
    ...kinds.filter((r) => usuallyDeclared.has(kindOf(r))),
  ];
  const metadata = new Map<string, KubeObject[]>();
  const full = new Map<string, KubeObject[]>();
  const unlisted: Tracked["unlisted"] = new Map();
  const stale: KubeApiError[] = [];
  const listInto = async (resource: ApiResource, metadataOnly: boolean) => {
    try {
      (metadataOnly ? metadata : full).set(kindOf(resource), await list(resource, metadataOnly));
    } catch (error) {
      // 404: the kind went away since discovery (a CRD deleted meanwhile); with discovery from the cache,
      // it may be the cache that is old. Other API errors are kept: they matter only if Git declares the
      // kind (resolveDesired decides), else they only mean that kind's orphans could not be checked.
      if (!(error instanceof KubeApiError)) throw error;
      if (error.status === 404 && index.cached) stale.push(error);
      else if (error.status !== 404) unlisted.set(kindOf(resource), { resource, error });
    }
  };
  // A kind the target declares is listed once in full; until the render says which, each kind that
  // comes up is listed by metadata, and one the target turns out to declare is listed again in full.
  await Promise.all([
    mapLimit(ordered, concurrency, async (resource) => {
      if (!declared?.has(kindOf(resource))) await listInto(resource, true);
    }),
    known.then((names) =>
      mapLimit(
        kinds.filter((r) => names.has(kindOf(r))),
        concurrency,
        (resource) => listInto(resource, false),
      ),
    ),
  ]);
  if (stale.length > 0) throw new StaleDiscoveryError(`${stale[0]!.message} (discovery read from the cache)`);
  const tracked: Tracked = { objects: new Map(), partial: new Set(), unlisted };
  for (const [kind, items] of metadata) {
    // A declared kind is compared: only its full LIST counts (when that failed, resolveDesired says why).
    if (full.has(kind) || declared?.has(kind)) continue;
    for (const o of items) {
      const key = keyString(objectKey(o));
      tracked.objects.set(key, o);
      tracked.partial.add(key);
    }
  }
  for (const items of full.values()) for (const o of items) tracked.objects.set(keyString(objectKey(o)), o);
  return tracked;
}

/**
 * The full bodies of `keys` (orphans found by metadata), GET one by one; an object gone meanwhile leaves
 * `tracked`. An object the identity may list but not read keeps its metadata.
 */
export async function completeObjects(params: {
  client: KubeClient;
  index: ResourceIndex;
  tracked: Tracked;
  keys: string[];
  concurrency?: number;
}): Promise<void> {
  const { client, index, tracked } = params;
  const wanted = params.keys.filter((key) => tracked.partial.has(key));
  await mapLimit(wanted, params.concurrency ?? 16, async (key) => {
    const partial = tracked.objects.get(key)!;
    const resource = index.find(partial.apiVersion, partial.kind)!;
    try {
      const body = await getObject({ client, resource, object: partial });
      if (body) tracked.objects.set(key, body);
      else tracked.objects.delete(key);
      tracked.partial.delete(key);
    } catch (error) {
      if (!forbidden(error)) throw error;
    }
  });
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

interface ResolveParams {
  client: KubeClient;
  index: ResourceIndex;
  desired: DesiredObject[];
  tracked: Tracked;
  selector: string;
  concurrency?: number;
}

type Unfound = { resource: ApiResource; d: DesiredObject };

/** What resolveDesired fills in as it goes; `found` records the live object of a desired one. */
interface Resolving {
  state: LiveState;
  found: (d: DesiredObject, o: KubeObject) => void;
}

export async function resolveDesired(params: ResolveParams): Promise<LiveState> {
  const state: LiveState = { byDesired: new Map(), unknown: new Set(), problems: [] };
  const resolving: Resolving = { state, found: (d, o) => state.byDesired.set(declaredKeyString(d.object), o) };
  const { unfound, forbiddenDesired } = fromTracked(params, resolving);
  unfound.push(...(await listForbiddenPerNamespace(params, forbiddenDesired, resolving)));
  await readUnfound(params, unfound, resolving);
  state.problems.push(...unseenOrphans(params, new Set([...forbiddenDesired.keys()].map(kindOf))));
  return state;
}

/** The desired objects the tracked LISTs found; the rest, to read, and those of kinds the identity may not list. */
function fromTracked(
  { index, desired, tracked }: ResolveParams,
  { found }: Resolving,
): { unfound: Unfound[]; forbiddenDesired: Map<ApiResource, DesiredObject[]> } {
  const unfound: Unfound[] = [];
  const forbiddenDesired = new Map<ApiResource, DesiredObject[]>();
  for (const d of desired) {
    const resource = index.find(d.object.apiVersion, d.object.kind);
    if (!resource) continue; // a kind whose CRD is in this target but not applied yet: missing, nothing to ask
    const key = keyString(objectKey(d.object));
    const live = tracked.objects.get(key);
    // An object held as metadata only (its kind listed before the render named it) is read in full below.
    if (live?.apiVersion === d.object.apiVersion && !tracked.partial.has(key)) found(d, live);
    else if (tracked.unlisted.has(kindOf(resource))) {
      const { error } = tracked.unlisted.get(kindOf(resource))!;
      // A declared kind that failed for another reason than permission fails the scan, to be retried.
      if (!forbidden(error)) throw error;
      forbiddenDesired.set(resource, [...(forbiddenDesired.get(resource) ?? []), d]);
    } else unfound.push({ resource, d });
  }
  return { unfound, forbiddenDesired };
}

/** No cluster-wide LIST; an identity bound per namespace may still list each namespace. Returns what those lists lack. */
async function listForbiddenPerNamespace(
  { client, tracked, selector }: ResolveParams,
  forbiddenDesired: Map<ApiResource, DesiredObject[]>,
  { state, found }: Resolving,
): Promise<Unfound[]> {
  const unfound: Unfound[] = [];
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
      if (!listed.has(d.object.metadata.namespace ?? "")) state.unknown.add(declaredKeyString(d.object));
  }
  return unfound;
}

/** The objects no LIST held, read by kind and namespace: a LIST of the namespace for several, a GET each for few. */
async function readUnfound(
  { client, concurrency = 8 }: ResolveParams,
  unfound: Unfound[],
  { state, found }: Resolving,
): Promise<void> {
  const batches = new Map<string, Unfound[]>();
  for (const u of unfound) {
    const { group, version, kind } = u.resource;
    const k = `${versionKindKey(group, version, kind)}|${u.d.object.metadata.namespace ?? ""}`;
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
      const what = `cannot read ${objectLabel(objectKey(batch[0]!.d.object), { spelling: "group" })}`;
      state.problems.push(problem(resource, error, what, namespace));
      for (const { d } of batch) state.unknown.add(declaredKeyString(d.object));
    }
  });
}

/** Orphans among kinds that could not be listed, or groups not discovered, cannot be seen: said once per reason. */
function unseenOrphans({ index, tracked }: ResolveParams, declaredKinds: Set<string>): ScanProblem[] {
  const problems: ScanProblem[] = [];
  const byReason = new Map<string, string[]>();
  for (const { resource: r, error } of tracked.unlisted.values()) {
    if (declaredKinds.has(kindOf(r))) continue;
    const reason = forbidden(error) ? "the identity may not list them" : `${error.reason} (${error.status})`;
    byReason.set(reason, [...(byReason.get(reason) ?? []), r.group ? `${r.resource}.${r.group}` : r.resource]);
  }
  for (const [reason, kinds] of byReason) {
    problems.push({ group: "", kind: "*", message: `orphans not checked among ${kinds.sort().join(", ")}: ${reason}` });
  }
  // A group the server could not discover has no kinds to list: its orphans cannot be seen either.
  for (const groupVersion of index.unavailable) {
    const [group, version] = splitApiVersion(groupVersion);
    problems.push({
      group,
      kind: "*",
      message: `orphans not checked in API group ${groupVersion}: the API server could not discover it (check APIService ${version}.${group})`,
    });
  }
  return problems;
}
