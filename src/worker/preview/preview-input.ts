// What the preview's renderers are given: every cluster's results for the
// head so far, the refused targets' failed rows, and which targets are still
// pending (their cluster has not answered yet).
import type { PreviewInput } from "../../report/preview/types.ts";
import type { ClusterPreview, PreviewPlan } from "../../state/preview-store.ts";

/** The renderers' input, targets in name order. */
export function previewInput(params: {
  head: string;
  plan: PreviewPlan;
  results: Map<string, ClusterPreview>;
}): PreviewInput {
  const { head, plan, results } = params;
  return {
    head,
    previews: [...plan.refused, ...[...results.values()].flatMap((r) => r.previews)].sort((a, b) =>
      a.target.localeCompare(b.target),
    ),
    unchanged: [...results.values()].flatMap((r) => r.unchanged).sort(),
    pending: Object.entries(plan.clusters)
      .filter(([cluster]) => !results.has(cluster))
      .flatMap(([, asked]) => asked.targets)
      .sort(),
    ...(plan.behindBy ? { behindBy: plan.behindBy } : {}),
  };
}
