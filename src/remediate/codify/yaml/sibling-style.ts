// The quoting a new scalar borrows from its siblings: a map whose string values
// are all double-quoted gets a double-quoted newcomer, so the block reads as one.
import { isMap, isScalar, isSeq, type Node } from "yaml";

/** QUOTE_DOUBLE or QUOTE_SINGLE when every string value beside it uses that style, else undefined (plain). */
export function siblingStyle(collection: Node): string | undefined {
  const values = isMap(collection) ? collection.items.map((p) => p.value) : isSeq(collection) ? collection.items : [];
  const styles = new Set(
    values.filter((v) => isScalar(v) && typeof v.value === "string").map((v) => (isScalar(v) ? v.type : undefined)),
  );
  const [only] = styles;
  return styles.size === 1 && (only === "QUOTE_DOUBLE" || only === "QUOTE_SINGLE") ? only : undefined;
}
