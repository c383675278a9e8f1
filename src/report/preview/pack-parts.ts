// Blocks into at most `maxParts` parts: when they do not all fit, object diffs
// are left out from the end first, then prune, drift and problem lists, and a
// closing note says how many objects of which targets are missing. Nothing is
// dropped silently, and what is kept is still split only between blocks.
import { splitParts } from "../split-parts.ts";
import type { PreviewBlock } from "./types.ts";

export interface PackParams {
  blocks: PreviewBlock[];
  maxLength: number;
  maxParts: number;
  /** The closing note for `objects` objects (and maybe lists) of `targets` left out; it must fit one block. */
  leftOut: (objects: number, targets: string[]) => string;
}

/** The blocks as parts of at most `maxLength` characters, no more than `maxParts` unless the rank-0 blocks alone need more. */
export function packParts(params: PackParams): string[] {
  const { blocks, maxLength, maxParts, leftOut } = params;
  const texts = renderWithin(blocks, maxParts * maxLength);
  const rendered = blocks.filter((b) => texts.has(b));
  const textsOf = (kept: PreviewBlock[]) => kept.map((b) => texts.get(b)!);
  if (rendered.length === blocks.length) {
    const all = splitParts(textsOf(blocks), maxLength);
    if (all.length <= maxParts) return all;
  }
  // Droppable blocks in the order they are kept: lists first, then diffs; a prefix of this order is kept.
  const order = [...rendered.filter((b) => b.rank === 1), ...rendered.filter((b) => b.rank === 2)];
  const attempt = (keep: number) => {
    const kept = new Set([...blocks.filter((b) => b.rank === 0), ...order.slice(0, keep)]);
    const dropped = blocks.filter((b) => !kept.has(b));
    const objects = dropped.reduce((n, b) => n + b.objects, 0);
    const targets = [...new Set(dropped.flatMap((b) => (b.target === undefined ? [] : [b.target])))];
    return splitParts([...textsOf(blocks.filter((b) => kept.has(b))), leftOut(objects, targets)], maxLength);
  };
  // More blocks never pack into fewer parts (splitParts fills each part in order), so the search is a bisection.
  let low = 0;
  let high = order.length;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (attempt(mid).length <= maxParts) low = mid;
    else high = mid;
  }
  return attempt(low);
}

/**
 * Every block of rank 0 and 1, then diffs in order until their total passes
 * `capacity`: the diffs after that could not fit in any case, so they are
 * counted by the caller but never rendered (a 3,000-object pull request would
 * otherwise spend seconds diffing objects nobody sees).
 */
function renderWithin(blocks: PreviewBlock[], capacity: number): Map<PreviewBlock, string> {
  const texts = new Map<PreviewBlock, string>();
  let total = 0;
  const add = (block: PreviewBlock) => {
    const text = block.render();
    texts.set(block, text);
    total += text.length + 2;
  };
  for (const block of blocks) if (block.rank < 2) add(block);
  for (const block of blocks) {
    if (block.rank !== 2) continue;
    if (total > capacity) break;
    add(block);
  }
  return texts;
}
