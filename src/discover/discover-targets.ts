// The targets a config's `discover:` entries find in one cluster: its Flux
// Kustomizations (with the GitRepositories they name) read through the
// cluster session, each made a target when its source is this repository.
// A cluster that does not serve a reconciler's kinds, or refuses to list them,
// is a problem said in one line; the configured targets are never affected.
//
//   const { targets, problems } = await discoverTargets({ session, entry, repository });
import type { DiscoverEntry } from "../config/discover-schema.ts";
import type { TargetConfig } from "../config/schema.ts";
import type { ClusterSession } from "../live/cluster-session.ts";
import { KubeApiError } from "../live/errors.ts";
import { listObjects } from "../live/list-objects.ts";
import type { KubeObject } from "../model/types.ts";
import { discoveredNames } from "./discovered-name.ts";
import { fluxKustomizationTarget } from "./flux-kustomization.ts";
import type { RepositoryIdentity } from "./source-url.ts";

export interface DiscoveredTargets {
  targets: TargetConfig[];
  /** One line each: a kind the cluster does not serve or lets this identity list, an object that makes no target. */
  problems: string[];
}

const FLUX_KUSTOMIZATION = { group: "kustomize.toolkit.fluxcd.io", kind: "Kustomization" };
const FLUX_GIT_REPOSITORY = { group: "source.toolkit.fluxcd.io", kind: "GitRepository" };

// Once per session: `scan --all` resolves each target by name on one session, and reads the reconcilers' objects once.
const read = new WeakMap<ClusterSession, Map<string, Promise<DiscoveredTargets>>>();

export function discoverTargets(params: {
  session: ClusterSession;
  entry: DiscoverEntry;
  repository: RepositoryIdentity;
  /** The config discovers on more than one cluster: names start with the cluster's. */
  clusterInName?: boolean;
}): Promise<DiscoveredTargets> {
  const bySession = read.get(params.session) ?? new Map<string, Promise<DiscoveredTargets>>();
  read.set(params.session, bySession);
  const key = JSON.stringify([params.entry, params.repository, params.clusterInName === true]);
  let found = bySession.get(key);
  if (!found) {
    found = discoverNow(params);
    // A failed read is not kept: the next ask tries again.
    found.catch(() => bySession.delete(key));
    bySession.set(key, found);
  }
  return found;
}

async function discoverNow(params: {
  session: ClusterSession;
  entry: DiscoverEntry;
  repository: RepositoryIdentity;
  clusterInName?: boolean;
}): Promise<DiscoveredTargets> {
  const { entry } = params;
  const problems: string[] = [];
  const targets: TargetConfig[] = [];
  if (entry.flux) targets.push(...(await fluxTargets(params, problems)));
  if (entry.argo) {
    problems.push(
      `cluster ${entry.cluster}: argo: Argo CD Applications are not read yet; declare their targets under targets:`,
    );
  }
  return { targets, problems };
}

async function fluxTargets(
  params: { session: ClusterSession; entry: DiscoverEntry; repository: RepositoryIdentity; clusterInName?: boolean },
  problems: string[],
): Promise<TargetConfig[]> {
  const { session, entry } = params;
  const [kustomizations, sources] = await Promise.all([
    listKind(session, FLUX_KUSTOMIZATION, entry.cluster, problems),
    listKind(session, FLUX_GIT_REPOSITORY, entry.cluster, problems),
  ]);
  if (!kustomizations || !sources) return [];
  const byName = new Map(sources.map((s) => [`${s.metadata.namespace}/${s.metadata.name}`, s]));
  const names = discoveredNames(
    kustomizations.map((k) => ({
      cluster: entry.cluster,
      clusterInName: params.clusterInName === true,
      kind: "Kustomization" as const,
      namespace: k.metadata.namespace ?? "",
      name: k.metadata.name,
    })),
  );
  return kustomizations.flatMap((kustomization, i) => {
    const found = fluxKustomizationTarget({
      kustomization,
      sources: byName,
      repository: params.repository,
      entry,
      name: names[i]!,
    });
    if (found.ok) return [found.target];
    if (!found.otherSource) problems.push(`cluster ${entry.cluster}: ${found.problem}`);
    return [];
  });
}

/** Every object of a reconciler's kind, in the version the server prefers; undefined (and a problem) when it cannot. */
async function listKind(
  session: ClusterSession,
  wanted: { group: string; kind: string },
  cluster: string,
  problems: string[],
): Promise<KubeObject[] | undefined> {
  const index = await session.discover();
  const resource = index.listable().find((r) => r.group === wanted.group && r.kind === wanted.kind);
  if (!resource) {
    problems.push(`cluster ${cluster}: serves no ${wanted.kind} (${wanted.group}); is the reconciler installed?`);
    return undefined;
  }
  try {
    return await listObjects({ client: session.client, resource });
  } catch (error) {
    if (!(error instanceof KubeApiError) || ![401, 403].includes(error.status)) throw error;
    problems.push(`cluster ${cluster}: may not list ${resource.resource}.${wanted.group}: ${error.message}`);
    return undefined;
  }
}
