// What a GitHub reader depends on in a markdown part: every fence and every <details> closed.
import { expect } from "vitest";

/** Fails unless each code fence in `part` is closed by a fence at least as long, before the part ends. */
export function expectBalancedFences(part: string): void {
  let open: string | undefined;
  for (const line of part.split("\n")) {
    const fence = /^(`{3,})/.exec(line)?.[1];
    if (open === undefined && fence) open = fence;
    else if (open !== undefined && fence && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  expect(open, "a code fence is left open").toBeUndefined();
}

/** Fails unless `<details>` and `</details>` pair up in order. */
export function expectBalancedDetails(part: string): void {
  let depth = 0;
  for (const match of part.matchAll(/<\/?details>/g)) {
    depth += match[0] === "<details>" ? 1 : -1;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
}

/** The object labels of the `<details>` blocks in `part`, in order. */
export function detailsLabels(part: string): string[] {
  return [...part.matchAll(/<details><summary><b>\w[\w-]*<\/b> <code>([^<]+)<\/code>/g)].map((m) => m[1]!);
}
