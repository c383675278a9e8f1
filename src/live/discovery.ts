// Discovery: which kinds the API server serves, under which resource name, in
// which scope. Read once per scan through aggregated discovery (two requests
// for the whole cluster), with the per-group legacy endpoints as a fallback.
import { ClusterIdentityError, KubeApiError } from "./errors.ts";
import type { KubeClient } from "./kube-client.ts";

export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  resource: string;
  namespaced: boolean;
  verbs: string[];
  /** True for the version the server prefers for this group. */
  preferred: boolean;
}

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
  items?: Array<{ metadata: { name?: string }; versions: Array<{ version: string; resources: DiscoveryResource[] }> }>;
}

/** Lookup table built from one discovery pass. */
export class ResourceIndex {
  readonly resources: ApiResource[];
  private readonly byGvk = new Map<string, ApiResource>();

  constructor(resources: ApiResource[]) {
    this.resources = resources;
    for (const r of resources) this.byGvk.set(`${r.group}/${r.version}/${r.kind}`, r);
  }

  /** The resource serving `apiVersion` + `kind`, or undefined when the server does not serve it. */
  find(apiVersion: string, kind: string): ApiResource | undefined {
    const [group, version] = splitApiVersion(apiVersion);
    return this.byGvk.get(`${group}/${version}/${kind}`);
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

async function legacy(client: KubeClient): Promise<ApiResource[]> {
  const out: ApiResource[] = [];
  const add = async (group: string, version: string, preferred: boolean) => {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const list = await client.send<{ resources: DiscoveryResource[] }>({ method: "GET", path });
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
  return out;
}

/** Reads the server's resources; costs two requests on any API server since Kubernetes 1.30. */
export async function discover(client: KubeClient): Promise<ResourceIndex> {
  try {
    return await discoverOnce(client);
  } catch (error) {
    // An identity that may not even read discovery may do nothing else: name it, not the path.
    if (error instanceof KubeApiError && error.status === 403) {
      const { status, reason, statusMessage: message, verb, path } = error;
      throw new ClusterIdentityError({ status, reason, message, verb, path, identity: client.identity });
    }
    throw error;
  }
}

async function discoverOnce(client: KubeClient): Promise<ResourceIndex> {
  const core = await client.send<AggregatedList>({ method: "GET", path: "/api", accept: aggregated });
  if (core?.kind !== "APIGroupDiscoveryList") return new ResourceIndex(await legacy(client));
  const groups = await client.send<AggregatedList>({ method: "GET", path: "/apis", accept: aggregated });
  return new ResourceIndex([...fromAggregated(core), ...fromAggregated(groups)]);
}
