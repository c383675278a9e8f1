// What the preview renderers take (every target of one pull request) and the
// blocks they pack into GitHub parts.
import type { PreviewReport } from "../../model/preview-report.ts";

/** The previews of one pull request, for its sticky comment and its check run. */
export interface PreviewInput {
  /** The head commit SHA (or ref) the previews were computed for. */
  head: string;
  previews: PreviewReport[];
  /** Targets whose render is identical in base and head: the merge changes nothing there. */
  unchanged?: string[];
  /** Targets still being computed. */
  pending?: string[];
  /**
   * Commits on the base branch that head does not have. Base is the merge base, so a change that
   * landed on the base branch since shows as if this merge undid it: the comment says so.
   */
  behindBy?: number;
}

/**
 * One block of markdown with what packing needs to know about it: blocks of
 * rank 0 are always kept; when the parts would run over their cap, blocks of
 * rank 2 (object diffs) are left out first, then rank 1 (prune, drift and
 * problem lists), each time from the end. A block is rendered only when
 * packing reaches it: a diff that cannot fit anyway is counted, never built.
 */
export interface PreviewBlock {
  render: () => string;
  rank: 0 | 1 | 2;
  /** Objects of the pull request this block lists (a diff: 1; a prune table slice: its rows). */
  objects: number;
  target?: string;
}
