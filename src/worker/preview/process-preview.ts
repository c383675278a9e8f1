// The worker's preview of one pull request head on one cluster (a `preview`
// job in that cluster's scan queue, see request-preview.ts for how it is asked):
//   0. superseded? a newer push recorded another head: end now, write nothing;
//   1. the cluster checked against the registry (refused: nothing is read; the
//      failure report shows the refusal as a failed row per target);
//   2. snapshots of base and head (one tarball per commit, cached on disk and
//      shared with the other clusters' jobs of the same push), and their configs;
//   3. which of the cluster's targets the pull request changes: base and head
//      rendered and compared, no cluster needed (changedTargets);
//   4. previewTarget for each changed target, one cluster session for all of
//      them (discovery and LISTs once) and the renders step 3 made; a render
//      error in head is a row, not a failure; the drift each already has
//      against base says who changed it (attribute-scan.ts);
//   5. the cluster's reports stored under the head, then the comment and the
//      check composed from every cluster's results so far (compose-preview.ts).
// The superseded check runs again before each target and before storing, so a
// push during a long preview costs at most one target's work. Errors propagate
// to the processor, which retries the transient ones (an unreachable cluster)
// and then reports them (report-preview-failure.ts).
import { clusterFor } from "../../config/cluster-registry.ts";
import { RenderCache } from "../../desired/render-cache.ts";
import { loadKubeconfig } from "../../live/load-kubeconfig.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import type { ScanContext } from "../../queue/process-job.ts";
import { previewStore } from "../../state/preview-store.ts";
import { attributeScan } from "../attribute-scan.ts";
import type { WorkerDeps } from "../worker-deps.ts";
import { clusterChangedTargets } from "./cluster-changed-targets.ts";
import { previewChangedTargets } from "./preview-changed-targets.ts";
import { publishClusterPreview } from "./publish-cluster-preview.ts";
import { readPreviewTrees } from "./read-preview-trees.ts";

/** What a preview job did, kept as its result: names and counts, never values. */
export interface PreviewOutcome {
  outcome: "previewed" | "superseded" | "no-config";
  head: string;
  changed?: string[];
  unchanged?: string[];
  /** The GitHub writes made. */
  actions: string[];
}

export async function processPreview(params: {
  deps: WorkerDeps;
  job: PreviewJob;
  context: ScanContext;
}): Promise<PreviewOutcome> {
  const { deps, job, context } = params;
  const { queues } = deps;
  const { signal } = context;
  const store = previewStore({
    redis: queues.connection,
    prefix: queues.prefix,
    repo: job.repo,
    number: job.pullRequest,
  });
  const superseded = async () => (await store.latest()) !== job.head;
  const ended: PreviewOutcome = { outcome: "superseded", head: job.head, actions: [] };

  // 0-1. Still wanted, and a cluster this repository may use.
  if (await superseded()) return ended;
  const entry = clusterFor(deps.registry, job.cluster, job.repo);

  // 2. Snapshots and configs.
  const octokit = await deps.probot.auth(job.installationId);
  const trees = await readPreviewTrees({ deps, job, octokit });
  if (!trees) return { outcome: "no-config", head: job.head, actions: [] };
  signal.throwIfAborted();

  // 3. The targets of this cluster the pull request changes; the previews reuse their renders.
  const renders = new RenderCache();
  const { changed, unchanged } = await clusterChangedTargets({ job, trees, renders, store });

  // 4. A preview of each, on one cluster session.
  const kubeConfig = loadKubeconfig(entry);
  const previewed = await previewChangedTargets({ job, trees, changed, renders, kubeConfig, superseded, signal });
  if (!previewed) return ended;
  const previews = [];
  for (const preview of previewed) {
    const drift = preview.drift && (await attributeScan({ deps, cluster: job.cluster, report: preview.drift, job }));
    previews.push(drift ? { ...preview, drift } : preview);
  }

  // 5. Stored, then composed with the other clusters' results.
  if (await superseded()) return ended;
  const unchangedNames = unchanged.map((t) => t.name);
  const composed = await publishClusterPreview({ deps, job, octokit, store, previews, unchanged: unchangedNames });
  return {
    outcome: composed.outcome === "superseded" ? "superseded" : "previewed",
    head: job.head,
    changed: changed.map((t) => t.name),
    unchanged: unchangedNames,
    actions: composed.actions,
  };
}
