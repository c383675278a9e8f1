// Step 3 of requestPreview: the targets split by the cluster registry. A
// refused target becomes a failed row (nothing is read from its cluster), the
// rest are grouped into one job per cluster.
import type { ClusterRegistry } from "../../config/cluster-registry.ts";
import { type PartitionedTargets, partitionTargets } from "../../config/partition-targets.ts";
import type { TargetConfig } from "../../config/schema.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import type { PreviewRequest } from "./preview-request.ts";

/** One job per cluster the registry allows, in the config's order, and the refused targets. */
export function previewJobs(params: {
  registry: ClusterRegistry | undefined;
  request: PreviewRequest;
  /** The merge base: what the head is compared with. */
  base: string;
  targets: readonly TargetConfig[];
}): { jobs: PreviewJob[]; refused: PartitionedTargets["refused"] } {
  const { request, base } = params;
  const repo = `${request.owner}/${request.repo}`;
  const { allowed, refused } = partitionTargets({ registry: params.registry, repo, targets: params.targets });
  const byCluster = new Map<string, string[]>();
  for (const target of allowed) byCluster.set(target.cluster, [...(byCluster.get(target.cluster) ?? []), target.name]);
  const jobs = [...byCluster].map(
    ([cluster, targets]): PreviewJob => ({
      installationId: request.installationId,
      repo,
      cluster,
      pullRequest: request.number,
      head: request.head,
      base,
      targets,
      reason: request.reason,
    }),
  );
  return { jobs, refused };
}
