// The tick of a `discover:` entry (config/discovery-target.ts): the repository
// read as for a scan (its head, snapshot and config), the cluster's reconcilers
// read on the cluster's shared session, and a scan queued for each target they
// name that the config does not configure itself (a configured one, override or
// not, has its own scheduler). The scans carry the tick's reason and commit, so
// a push's tick scans every discovered target at the pushed commit. Each scan
// reads the reconcilers again when it starts, so a target follows its object.
// What makes no target (a kind the cluster lacks, an object undrift cannot
// render yet) is audited and logged, one line each; it stops nothing else.
import { clusterFor } from "../config/cluster-registry.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { enqueueScan } from "../queue/enqueue-scan.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { ScanContext } from "../queue/process-job.ts";
import type { ScanOutcome } from "./process-scan.ts";
import { resolveScanConfig } from "./resolve-scan-target.ts";
import { scanJobAudit } from "./scan-job-audit.ts";
import { targetsOnCluster } from "./targets-on-cluster.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function processDiscovery(params: {
  deps: WorkerDeps;
  job: ScanJob;
  context: ScanContext;
}): Promise<ScanOutcome> {
  const { deps, job } = params;
  const audit = scanJobAudit({ deps, job });
  const { signal } = params.context;
  const read = await resolveScanConfig({ deps, job, signal, audit });
  if ("skipped" in read) return read.skipped;
  const { head, config } = read.resolved;
  const kubeConfig = (cluster: string) => loadKubeconfig(clusterFor(deps.registry, cluster, job.repo));
  const found = await targetsOnCluster({ deps, job, config, kubeConfig });
  if (!found) {
    // The entry left the config; its scheduler goes with the push that removed it.
    await audit({
      event: "scan-skipped",
      revision: head.sha,
      outcome: "the config no longer discovers on this cluster",
    });
    return { outcome: "target-gone", revision: head.sha, actions: [] };
  }
  signal.throwIfAborted();
  for (const problem of found.problems) deps.log.warn({ repo: job.repo, cluster: job.cluster }, problem);
  const queued: string[] = [];
  for (const target of found.discovered) {
    await enqueueScan({
      queues: deps.queues,
      job: {
        installationId: job.installationId,
        repo: job.repo,
        target: target.name,
        cluster: target.cluster,
        ...(job.revision ? { revision: job.revision } : {}),
        reason: job.reason,
      },
    });
    queued.push(target.name);
  }
  const said = queued.length > 0 ? `queued scans of ${queued.join(", ")}` : "found no target";
  await audit({
    event: "discover",
    cluster: job.cluster,
    revision: head.sha,
    outcome: [said, ...found.problems].join("; "),
  });
  return { outcome: "discovered", revision: head.sha, actions: queued.map((name) => `queued a scan of ${name}`) };
}
