// Step 3 of processPreview: which of the job's cluster's targets the pull
// request changes, base and head rendered and compared with no cluster
// (changedTargets), kept in the preview store for the comment.
import type { TargetConfig } from "../../config/schema.ts";
import type { RenderCache } from "../../desired/render-cache.ts";
import type { PreviewJob } from "../../queue/jobs.ts";
import { changedTargets } from "../../stages/preview/changed-targets.ts";
import type { PreviewStore } from "../../state/preview-store.ts";
import type { PreviewTrees } from "./read-preview-trees.ts";

/** The changed and unchanged targets, resolved from head's config; `renders` keeps the renders for the previews. */
export async function clusterChangedTargets(params: {
  job: PreviewJob;
  trees: PreviewTrees;
  /** The renders that tell a change are the ones the previews compare: each tree is rendered once. */
  renders: RenderCache;
  store: PreviewStore;
}): Promise<{ changed: TargetConfig[]; unchanged: TargetConfig[] }> {
  const { job, trees, renders, store } = params;
  const { headConfig, baseConfig } = trees;
  const targets = headConfig.targets.filter((t) => t.cluster === job.cluster);
  const { changed, unchanged } = await changedTargets({
    renders,
    headDir: trees.headDir,
    baseDir: trees.baseDir,
    ...(baseConfig === undefined ? {} : { baseConfig }),
    targets,
  });
  await store.saveChanged(
    job.head,
    job.cluster,
    changed.map((t) => t.name),
  );
  return { changed, unchanged };
}
