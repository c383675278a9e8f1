// Every block of a pull request's preview, in reading order: the overview,
// then each target's section. The comment and the check run pack the same blocks.
import { previewOverview } from "./preview-overview.ts";
import { targetBlocks } from "./target-blocks.ts";
import type { PreviewBlock, PreviewInput } from "./types.ts";

/** The overview (optional: the check run shows it as its summary) and each target's blocks, each within `budget`. */
export function previewBlocks(params: { input: PreviewInput; budget: number; overview?: boolean }): PreviewBlock[] {
  const { input, budget } = params;
  const overview: PreviewBlock[] =
    params.overview === false
      ? []
      : previewOverview(input, budget).map((text) => ({ render: () => text, rank: 0, objects: 0 }));
  return [...overview, ...input.previews.flatMap((report) => targetBlocks(report, budget))];
}
