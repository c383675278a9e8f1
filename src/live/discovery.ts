// Discovery: which kinds the API server serves, under which resource name, in
// which scope. Read once per scan through aggregated discovery (two requests
// for the whole cluster), with the per-group legacy endpoints as a fallback.
import { versionKindKey } from "../model/object-key.ts";
import type { ApiResource } from "./api-resource.ts";
import type { CachedDiscovery, DiscoveryCache } from "./discovery-cache.ts";
import { discoveryTtlMs } from "./discovery-cache.ts";
import { ClusterIdentityError, KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";

export type { ApiResource };

const aggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";

interface DiscoveryResource {
  resource: string;
  responseKind?: { kind?: string };
  kind?: string;
  scope?: string;
  namespaced?: boolean;
  verbs?: string[];
  name?: string;
}
interface AggregatedList {
  kind?: string;
  items?: Array<{
    metadata: { name?: string };
    versions: Array<{ version: string; resources?: DiscoveryResource[]; freshness?: string }>;
  }>;
}

/** Lookup table built from one discovery pass. */
export class ResourceIndex {
  readonly resources: ApiResource[];
  /** Read (in part) from the disk cache: a kind it lacks or the server no longer serves means discover again. */
  readonly cached: boolean;
  /**
   * `group/version` of the API groups the server could not discover (an aggregated APIService whose service is
   * down or gone): their kinds are missing or stale here, so their orphans cannot be checked.
   */
  readonly unavailable: string[];
  private readonly byGvk = new Map<string, ApiResource>();

  constructor(resources: ApiResource[], options: { cached?: boolean; unavailable?: string[] } = {}) {
    this.resources = resources;
    this.cached = options.cached ?? false;
    this.unavailable = options.unavailable ?? [];
    for (const r of resources) this.byGvk.set(versionKindKey(r.group, r.version, r.kind), r);
  }

  /** The resource serving `apiVersion` + `kind`, or undefined when the server does not serve it. */
  find(apiVersion: string, kind: string): ApiResource | undefined {
    const [group, version] = splitApiVersion(apiVersion);
    return this.byGvk.get(versionKindKey(group, version, kind));
  }

  /** Whether a kind is namespaced, as finalizeDesired asks; undefined when the server does not serve it. */
  scopeOf(apiVersion: string, kind: string): "Namespaced" | "Cluster" | undefined {
    const r = this.find(apiVersion, kind);
    return r ? (r.namespaced ? "Namespaced" : "Cluster") : undefined;
  }

  /** Kinds that can be listed, one entry per group and kind, in the server's preferred version. */
  listable(): ApiResource[] {
    return this.resources.filter((r) => r.preferred && r.verbs.includes("list"));
  }
}

/** "apps/v1" → ["apps", "v1"]; "v1" → ["", "v1"]. */
export function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? ["", apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/**
 * The group versions the aggregator marks `Stale`: it could not fetch their discovery (the APIService's service
 * answers 503, or is gone), as client-go's aggregated discovery reports a StaleGroupVersionError for them.
 */
function staleOf(list: AggregatedList): string[] {
  const stale: string[] = [];
  for (const group of list.items ?? []) {
    for (const v of group.versions)
      if (v.freshness === "Stale") stale.push(`${group.metadata.name ?? ""}/${v.version}`);
  }
  return stale;
}

function fromAggregated(list: AggregatedList): ApiResource[] {
  const out: ApiResource[] = [];
  for (const group of list.items ?? []) {
    group.versions.forEach((v, index) => {
      for (const r of v.resources ?? []) {
        const kind = r.responseKind?.kind;
        if (!kind) continue;
        out.push({
          group: group.metadata.name ?? "",
          version: v.version,
          kind,
          resource: r.resource,
          namespaced: r.scope === "Namespaced",
          verbs: r.verbs ?? [],
          preferred: index === 0,
        });
      }
    });
  }
  return out;
}

async function legacy(client: KubeClient): Promise<{ resources: ApiResource[]; unavailable: string[] }> {
  const out: ApiResource[] = [];
  const unavailable: string[] = [];
  const add = async (group: string, version: string, preferred: boolean) => {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    let list: { resources: DiscoveryResource[] };
    try {
      list = await client.send<{ resources: DiscoveryResource[] }>({ method: "GET", path });
    } catch (error) {
      // An aggregated group whose service is down: the rest of the cluster can still be scanned, as kubectl goes on.
      if (!(group && error instanceof KubeApiError && error.status === 503)) throw error;
      unavailable.push(`${group}/${version}`);
      return;
    }
    for (const r of list.resources) {
      if (!r.name || r.name.includes("/") || !r.kind) continue;
      out.push({
        group,
        version,
        kind: r.kind,
        resource: r.name,
        namespaced: Boolean(r.namespaced),
        verbs: r.verbs ?? [],
        preferred,
      });
    }
  };
  await add("", "v1", true);
  const groups = await client.send<{
    groups: Array<{ name: string; versions: Array<{ version: string }>; preferredVersion?: { version: string } }>;
  }>({ method: "GET", path: "/apis" });
  for (const g of groups.groups) {
    for (const v of g.versions) await add(g.name, v.version, v.version === g.preferredVersion?.version);
  }
  return { resources: out, unavailable };
}

/**
 * Reads the server's resources: two requests on any API server since Kubernetes 1.30. With a disk cache, a
 * warm entry costs one conditional request (304 when no CRD or API service came or went; the core group
 * changes only with the server's version and is trusted for kubectl's TTL); `refresh` ignores the entry.
 */
export async function discover(
  client: KubeClient,
  options: { cache?: DiscoveryCache | undefined; refresh?: boolean; now?: () => number } = {},
): Promise<ResourceIndex> {
  try {
    return await discoverCached(client, options);
  } catch (error) {
    // An identity that may not even read discovery may do nothing else: name it, not the path.
    if (error instanceof KubeApiError && error.status === 403) {
      const { status, reason, statusMessage: message, verb, path } = error;
      throw new ClusterIdentityError({ status, reason, message, verb, path, identity: client.identity });
    }
    throw error;
  }
}

async function discoverCached(
  client: KubeClient,
  options: { cache?: DiscoveryCache | undefined; refresh?: boolean; now?: () => number },
): Promise<ResourceIndex> {
  const { cache } = options;
  const now = (options.now ?? Date.now)();
  const entry = cache && !options.refresh ? await cache.read(client.server) : undefined;
  const fresh = entry && now - entry.fetchedAt >= 0 && now - entry.fetchedAt < discoveryTtlMs;
  if (entry && fresh) {
    // A server without aggregated discovery has no ETag to ask by: its entry is trusted for the TTL, as kubectl's.
    if (!entry.aggregated || !entry.groupsEtag) return indexOf(entry, true);
    const answer = await client.sendConditional<AggregatedList>({
      method: "GET",
      path: "/apis",
      accept: aggregated,
      headers: { "if-none-match": entry.groupsEtag },
    });
    if (answer.notModified) return indexOf(entry, true);
    if (answer.body?.kind === "APIGroupDiscoveryList") {
      const updated: CachedDiscovery = { ...entry, groups: fromAggregated(answer.body) };
      const unavailable = staleOf(answer.body);
      if (unavailable.length > 0) updated.unavailable = unavailable;
      else delete updated.unavailable;
      if (answer.etag) updated.groupsEtag = answer.etag;
      else delete updated.groupsEtag;
      await cache!.write(updated);
      return indexOf(updated, true);
    }
  }
  const found = await discoverOnce(client);
  const written: CachedDiscovery = { server: client.server, fetchedAt: now, ...found };
  await cache?.write(written);
  return indexOf(written, false);
}

function indexOf(entry: Pick<CachedDiscovery, "core" | "groups" | "unavailable">, cached: boolean): ResourceIndex {
  return new ResourceIndex([...entry.core, ...entry.groups], { cached, unavailable: entry.unavailable ?? [] });
}

async function discoverOnce(client: KubeClient): Promise<Omit<CachedDiscovery, "server" | "fetchedAt">> {
  const core = await client.send<AggregatedList>({ method: "GET", path: "/api", accept: aggregated });
  if (core?.kind !== "APIGroupDiscoveryList") {
    const walked = await legacy(client);
    const unavailable = walked.unavailable.length > 0 ? { unavailable: walked.unavailable } : {};
    return { aggregated: false, core: walked.resources, groups: [], ...unavailable };
  }
  const groups = await client.sendConditional<AggregatedList>({ method: "GET", path: "/apis", accept: aggregated });
  const stale = staleOf(groups.body ?? {});
  return {
    aggregated: true,
    core: fromAggregated(core),
    groups: fromAggregated(groups.body ?? {}),
    ...(groups.etag ? { groupsEtag: groups.etag } : {}),
    ...(stale.length > 0 ? { unavailable: stale } : {}),
  };
}
