// GitHub caps a comment or check-run text at 65,536 characters. Blocks (an
// overview, a slice of a table, one object's <details>) are packed whole into
// parts, so no part ever cuts through a fence or a <details>.

/** Room kept in every part for its `(continued, part 2 of 3)` lines and the final newline. */
const RESERVE = 100;

/** The most characters one block may have so that it fits in a part of `maxLength`. */
export function blockBudget(maxLength: number): number {
  return maxLength - RESERVE;
}

/** Blocks packed in order into parts of at most `maxLength` characters; every part after the first says it continues. */
export function splitParts(blocks: string[], maxLength: number): string[] {
  const budget = blockBudget(maxLength);
  const parts: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const block of blocks) {
    if (block.length > budget) throw new RangeError(`a report block of ${block.length} characters exceeds ${budget}`);
    if (current.length > 0 && size + 2 + block.length > budget) {
      parts.push(current);
      current = [];
      size = 0;
    }
    size += (current.length > 0 ? 2 : 0) + block.length;
    current.push(block);
  }
  if (current.length > 0) parts.push(current);
  const total = parts.length;
  return parts.map((part, i) => {
    const head = i > 0 ? `(continued, part ${i + 1} of ${total})\n\n` : "";
    const tail = i < total - 1 ? `\n\n(continued in part ${i + 2} of ${total})` : "";
    return `${head}${part.join("\n\n")}${tail}\n`;
  });
}

/** A table as blocks that each fit `budget`, the header repeated atop each, so a long table can span parts. */
export function tableBlocks(head: string[], rows: string[], budget: number): string[] {
  return chunk(rows, budget - head.join("\n").length - 1).map((slice) => [...head, ...slice].join("\n"));
}

/** Lines grouped, in order, into runs whose joined length fits `budget`. */
export function chunk(lines: string[], budget: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = -1;
  for (const line of lines) {
    if (current.length > 0 && size + 1 + line.length > budget) {
      chunks.push(current);
      current = [];
      size = -1;
    }
    size += 1 + line.length;
    current.push(line);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
