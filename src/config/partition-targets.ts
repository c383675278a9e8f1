// Which targets of a config may be scanned: each names a cluster, and the
// registry says whether this repository may use it. A refused target gets no
// scheduler, so nothing is ever read from that cluster on its behalf.
import { ClusterAccessError, type ClusterRegistry, clusterFor } from "./cluster-registry.ts";
import type { TargetConfig } from "./schema.ts";

export interface PartitionedTargets {
  allowed: TargetConfig[];
  refused: Array<{ target: TargetConfig; error: ClusterAccessError }>;
}

/** Splits `targets` by the registry; without a registry (a web process without one) all are allowed for now. */
export function partitionTargets(params: {
  registry: ClusterRegistry | undefined;
  repo: string;
  targets: readonly TargetConfig[];
}): PartitionedTargets {
  const result: PartitionedTargets = { allowed: [], refused: [] };
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
