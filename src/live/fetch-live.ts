// The live side of a scan, in as few requests as the answer allows:
//   1. one paged LIST per kind Git declares, across namespaces, by the tracking selector;
//   2. for declared objects that LIST did not return (not labelled yet): a LIST of their
//      namespace when several share it, else a GET each;
//   3. one paged LIST by the selector of every other listable kind, to find orphans.
// A kind the identity may not list is a problem for that kind; the rest goes on.
import { describeKey, keyString, objectKey } from "../desired/object-key.ts";
import type { DesiredObject, KubeObject, ScanProblem } from "../drift/types.ts";
import type { ApiResource, ResourceIndex } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import { getObject } from "./get-object.ts";
import type { KubeClient } from "./kube-client.ts";
import { listObjects } from "./list-objects.ts";
import { mapLimit } from "./map-limit.ts";

export interface LiveState {
  /** Live objects found for desired ones, by `apiVersion|keyString` of the desired object. */
  byDesired: Map<string, KubeObject>;
  /** Every object carrying the tracking selector, by keyString: the candidates for orphans. */
  tracked: Map<string, KubeObject>;
  /** Desired objects that could not be looked up (forbidden, or their kind is not served yet), by the same key. */
  unknown: Set<string>;
  problems: ScanProblem[];
}

// Kinds that carry no configuration and would only cost LISTs.
const neverTracked = new Set(["/Event", "events.k8s.io/Event", "/ComponentStatus", "coordination.k8s.io/Lease"]);
const namespaceListThreshold = 3;

export const desiredKey = (o: KubeObject) => `${o.apiVersion}|${keyString(objectKey(o))}`;

function problem(r: ApiResource, error: unknown, what: string, namespace?: string): ScanProblem {
  const why =
    error instanceof KubeApiError
      ? `${error.reason} (${error.status})`
      : error instanceof Error
        ? error.message
        : String(error);
  return { group: r.group, kind: r.kind, ...(namespace ? { namespace } : {}), message: `${what}: ${why}` };
}

const forbidden = (error: unknown) => error instanceof KubeApiError && (error.status === 403 || error.status === 401);

export async function fetchLive(params: {
  client: KubeClient;
  index: ResourceIndex;
  desired: DesiredObject[];
  selector: string;
  concurrency?: number;
}): Promise<LiveState> {
  const { client, index, selector } = params;
  const concurrency = params.concurrency ?? 8;
  const state: LiveState = { byDesired: new Map(), tracked: new Map(), unknown: new Set(), problems: [] };
  const track = (o: KubeObject) => state.tracked.set(keyString(objectKey(o)), o);

  // 1. Group desired objects by the resource that serves them, in their own version.
  const groups = new Map<ApiResource, DesiredObject[]>();
  for (const d of params.desired) {
    const resource = index.find(d.object.apiVersion, d.object.kind);
    if (!resource) continue; // a kind whose CRD is in this target but not applied yet: missing, nothing to ask
    groups.set(resource, [...(groups.get(resource) ?? []), d]);
  }
  const lookup = new Map<string, KubeObject>();
  const remember = (o: KubeObject) => lookup.set(desiredKey(o), o);
  const listedKinds = new Set<string>();
  await mapLimit([...groups.entries()], concurrency, async ([resource, objects]) => {
    listedKinds.add(`${resource.group}/${resource.kind}`);
    try {
      for (const o of await listObjects({ client, resource, labelSelector: selector })) {
        remember(o);
        track(o);
      }
    } catch (error) {
      if (!forbidden(error) || !resource.namespaced) throw error;
      // No cluster-wide LIST; an identity bound per namespace may still list each namespace.
      for (const ns of new Set(objects.map((d) => d.object.metadata.namespace ?? ""))) {
        try {
          for (const o of await listObjects({ client, resource, namespace: ns, labelSelector: selector })) {
            remember(o);
            track(o);
          }
        } catch (inner) {
          if (!forbidden(inner)) throw inner;
          state.problems.push(problem(resource, inner, `cannot list ${resource.resource}`, ns));
          for (const d of objects)
            if ((d.object.metadata.namespace ?? "") === ns) state.unknown.add(desiredKey(d.object));
        }
      }
    }
  });

  // 2. Declared objects the selector did not find.
  const unfound = [...groups.entries()].flatMap(([resource, objects]) =>
    objects
      .filter((d) => !lookup.has(desiredKey(d.object)) && !state.unknown.has(desiredKey(d.object)))
      .map((d) => ({ resource, d })),
  );
  const byNamespace = new Map<string, typeof unfound>();
  for (const u of unfound) {
    const k = `${u.resource.group}/${u.resource.version}/${u.resource.kind}|${u.d.object.metadata.namespace ?? ""}`;
    byNamespace.set(k, [...(byNamespace.get(k) ?? []), u]);
  }
  await mapLimit([...byNamespace.values()], concurrency, async (batch) => {
    const { resource } = batch[0]!;
    const namespace = batch[0]!.d.object.metadata.namespace;
    try {
      if (batch.length >= namespaceListThreshold) {
        for (const o of await listObjects({ client, resource, namespace })) remember(o);
      } else {
        for (const { d } of batch) {
          const o = await getObject({ client, resource, object: d.object });
          if (o) remember(o);
        }
      }
    } catch (error) {
      if (!forbidden(error)) throw error;
      state.problems.push(
        problem(resource, error, `cannot read ${describeKey(objectKey(batch[0]!.d.object))}`, namespace),
      );
      for (const { d } of batch) state.unknown.add(desiredKey(d.object));
    }
  });
  for (const d of params.desired) {
    const o = lookup.get(desiredKey(d.object));
    if (o) state.byDesired.set(desiredKey(d.object), o);
  }

  // 3. Orphans can be of any kind, including kinds Git no longer declares at all.
  const others = index
    .listable()
    .filter((r) => !listedKinds.has(`${r.group}/${r.kind}`) && !neverTracked.has(`${r.group}/${r.kind}`));
  const unlisted: string[] = [];
  await mapLimit(others, concurrency, async (resource) => {
    try {
      for (const o of await listObjects({ client, resource, labelSelector: selector })) track(o);
    } catch (error) {
      if (!forbidden(error) && !(error instanceof KubeApiError && error.status === 404)) throw error;
      unlisted.push(resource.group ? `${resource.resource}.${resource.group}` : resource.resource);
    }
  });
  if (unlisted.length > 0) {
    const kinds = unlisted.sort().join(", ");
    state.problems.push({
      group: "",
      kind: "*",
      message: `orphans not checked among ${kinds}: the identity may not list them`,
    });
  }
  return state;
}
