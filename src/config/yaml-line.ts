// Zod reports a path into the parsed data; people need the line in the file.
import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from "yaml";

/**
 * The 1-based line of the value at `path`, of its key when `at` is "key", or of
 * the deepest map or list on the path that exists (a missing key's map).
 */
export function yamlLine(
  doc: Document,
  counter: LineCounter,
  path: readonly PropertyKey[],
  at: "value" | "key" = "value",
): number {
  let node = doc.contents as Node | null;
  for (const [index, step] of path.entries()) {
    if (isAlias(node)) node = node.resolve(doc) ?? null;
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
      if (!pair) break;
      const keyNode = pair.key as Node;
      const valueNode = pair.value as Node | null;
      if ((at === "key" && index === path.length - 1) || !valueNode?.range) return lineAt(counter, keyNode);
      next = valueNode;
    } else if (isSeq(node) && typeof step === "number") {
      next = node.items[step];
    }
    if (!next) break;
    node = next as Node;
  }
  return lineAt(counter, node);
}

function lineAt(counter: LineCounter, node: Node | null | undefined): number {
  const offset = node?.range?.[0];
  return offset === undefined ? 1 : counter.linePos(offset).line;
}
