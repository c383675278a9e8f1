// Which targets of a config may be scanned: each names a cluster, and the
// registry says whether this repository may use it. A refused target gets no
// scheduler, so nothing is ever read from that cluster on its behalf.
import { ClusterAccessError, type ClusterRegistry, clusterFor } from "./cluster-registry.ts";
import { discoveryTarget } from "./discovery-target.ts";
import type { RepoConfig, TargetConfig } from "./schema.ts";

export interface PartitionedTargets<T extends { cluster: string } = TargetConfig> {
  allowed: T[];
  refused: Array<{ target: T; error: ClusterAccessError }>;
}

/** Splits `targets` by the registry; without a registry (a web process without one) all are allowed for now. */
export function partitionTargets<T extends { cluster: string } = TargetConfig>(params: {
  registry: ClusterRegistry | undefined;
  repo: string;
  targets: readonly T[];
}): PartitionedTargets<T> {
  const result: PartitionedTargets<T> = { allowed: [], refused: [] };
  for (const target of params.targets) {
    if (!params.registry) {
      result.allowed.push(target);
      continue;
    }
    try {
      clusterFor(params.registry, target.cluster, params.repo);
      result.allowed.push(target);
    } catch (error) {
      if (!(error instanceof ClusterAccessError)) throw error;
      result.refused.push({ target, error });
    }
  }
  return result;
}

/** What a scheduler names: a target, or a `discover:` entry's tick (config/discovery-target.ts). */
export interface ScheduledName {
  name: string;
  cluster: string;
}

/** The config's targets and `discover:` ticks, split by the registry: what gets a scheduler, what is refused. */
export function partitionScheduled(params: {
  registry: ClusterRegistry | undefined;
  repo: string;
  config: RepoConfig;
}): PartitionedTargets<ScheduledName> {
  const { registry, repo, config } = params;
  const ticks = config.discover.map((entry) => ({ name: discoveryTarget(entry.cluster), cluster: entry.cluster }));
  return partitionTargets<ScheduledName>({ registry, repo, targets: [...config.targets, ...ticks] });
}
