// previewTarget for each changed target of one cluster, all on one cluster
// session (discovery once, one LIST per kind for all) and with the renders
// changedTargets already made. A newer push ends the run before the next
// target, so it costs at most one target's work.
import type { KubeConfig } from "@kubernetes/client-node";
import type { TargetConfig } from "../../config/schema.ts";
import type { RenderCache } from "../../desired/render-cache.ts";
import { ClusterSession } from "../../live/cluster-session.ts";
import type { PreviewReport } from "../../model/preview-report.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import { previewTarget } from "../../stages/preview/preview-target.ts";
import type { PreviewTrees } from "./read-preview-trees.ts";

/** The previews, in the order of `changed`; undefined when the job was superseded on the way. */
export async function previewChangedTargets(params: {
  job: PreviewJob;
  trees: PreviewTrees;
  changed: TargetConfig[];
  renders: RenderCache;
  kubeConfig: KubeConfig;
  superseded: () => Promise<boolean>;
  signal: AbortSignal;
}): Promise<PreviewReport[] | undefined> {
  const { job, trees, kubeConfig } = params;
  // Every changed target of this cluster is previewed on one session: discovery once, one LIST per kind for all.
  const session = new ClusterSession(kubeConfig, { shareLists: true });
  const previews: PreviewReport[] = [];
  for (const target of params.changed) {
    if (await params.superseded()) return undefined;
    params.signal.throwIfAborted();
    previews.push(
      await previewTarget({
        headDir: trees.headDir,
        baseDir: trees.baseDir,
        target,
        session,
        renders: params.renders,
        head: job.head,
        base: job.base,
        headConfig: trees.headConfig,
        ...(trees.baseConfig ? { baseConfig: trees.baseConfig } : {}),
      }),
    );
  }
  return previews;
}
