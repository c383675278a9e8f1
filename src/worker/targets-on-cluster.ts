// A repository's targets on the job's cluster when its config discovers there:
// the configured ones merged with those the cluster's reconcilers name (a
// `targets:` entry of a discovered name overrides its mode, prune and rules).
// Read on the cluster's shared session, so the scans of one cluster that run
// together read the reconcilers' objects once (discover/discover-targets.ts).
// Undefined when the config does not discover on this cluster: its own
// targets are all there is.
import type { KubeConfig } from "@kubernetes/client-node";
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import { discoverTargets } from "../discover/discover-targets.ts";
import { mergeTargets } from "../discover/merge-targets.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import type { ScanJob } from "../queue/jobs.ts";
import type { WorkerDeps } from "./worker-deps.ts";

export async function targetsOnCluster(params: {
  deps: WorkerDeps;
  job: Pick<ScanJob, "repo" | "cluster">;
  config: RepoConfig;
  kubeConfig: (cluster: string) => KubeConfig;
}): Promise<{ targets: TargetConfig[]; discovered: TargetConfig[]; problems: string[] } | undefined> {
  const { deps, job, config } = params;
  const entry = config.discover.find((e) => e.cluster === job.cluster);
  if (!entry) return undefined;
  const [owner = "", repo = ""] = job.repo.split("/");
  const kubeConfig = params.kubeConfig(job.cluster);
  const lease = deps.sessions?.acquire(job.cluster, kubeConfig);
  try {
    const found = await discoverTargets({
      session: lease?.session ?? new ClusterSession(kubeConfig),
      entry,
      repository: { host: deps.githubHost ?? "github.com", owner, repo },
      clusterInName: config.discover.length > 1,
    });
    const merged = mergeTargets({ configured: config.targets, discovered: found.targets });
    const configured = new Set(config.targets.map((t) => t.name));
    return {
      targets: merged.targets,
      discovered: merged.targets.filter((t) => t.cluster === job.cluster && !configured.has(t.name)),
      problems: [...found.problems, ...merged.problems],
    };
  } finally {
    lease?.release();
  }
}
