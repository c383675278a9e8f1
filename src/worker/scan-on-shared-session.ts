// A scan job's scan, on the cluster session of the jobs running beside it
// (their discovery and LISTs are shared); a worker without a pool scans on a
// session of its own. The snapshot has no .git, so the report is told the
// commit it rendered.
import { ClusterSession } from "../live/cluster-session.ts";
import type { KubeClient } from "../live/kube-client.ts";
import { type ScanResult, scanResolvedTarget } from "../stages/scan/scan-target.ts";
import type { ResolvedScanTarget } from "./resolve-scan-target.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function scanOnSharedSession(params: {
  deps: WorkerDeps;
  resolved: ResolvedScanTarget;
}): Promise<{ scan: ScanResult; client: KubeClient }> {
  const { repoDir, config, target, kubeConfig, head } = params.resolved;
  const lease = params.deps.sessions?.acquire(target.cluster, kubeConfig);
  try {
    const session = lease?.session ?? new ClusterSession(kubeConfig);
    // The client outlives the lease: heal applies through it once the scan is done.
    const scan = await scanResolvedTarget({ repoDir, config, target, session, revision: head.sha });
    return { scan, client: session.client };
  } finally {
    lease?.release();
  }
}
