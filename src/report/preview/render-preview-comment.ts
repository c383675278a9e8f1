// The sticky pull request comment: every target's preview in one comment of
// up to `maxParts` parts, each within GitHub's body limit. The caller posts
// part 1 as the comment (with its marker) and the rest as follow-ups.
import { bodyLimit } from "../markers.ts";
import { blockBudget } from "../split-parts.ts";
import { leftOutNote } from "./left-out-note.ts";
import { packParts } from "./pack-parts.ts";
import { previewBlocks } from "./preview-blocks.ts";
import type { PreviewInput } from "./types.ts";

export interface RenderPreviewCommentOptions {
  /** Most characters in one part: GitHub's body limit by default. Leave room for the marker line you add. */
  maxLength?: number;
  /** Most parts: past it, object diffs are left out and the last part says how many. */
  maxParts?: number;
}

/** Below this a part cannot hold an object's summary and a table row with room to spare. */
const MIN_LENGTH = 4096;

/** The previews of one pull request as markdown parts, in order, each at most `maxLength` characters. */
export function renderPreviewComment(input: PreviewInput, options: RenderPreviewCommentOptions = {}): string[] {
  const maxLength = options.maxLength ?? bodyLimit;
  const maxParts = options.maxParts ?? 10;
  if (maxLength < MIN_LENGTH) throw new RangeError(`maxLength must be at least ${MIN_LENGTH}, got ${maxLength}`);
  if (!Number.isInteger(maxParts) || maxParts < 1) throw new RangeError(`maxParts must be at least 1, got ${maxParts}`);
  return packParts({
    blocks: previewBlocks({ input, budget: blockBudget(maxLength) }),
    maxLength,
    maxParts,
    leftOut: (objects, targets) =>
      leftOutNote({
        objects,
        targets,
        why: `this comment stops at ${maxParts} ${maxParts === 1 ? "part" : "parts"}`,
        where:
          "The table above counts them; see the undrift/preview check run, or run `undrift preview` for the full report.",
      }),
  });
}
