// Paths into objects in the vocabulary of managedFields: a path is a list of
// tokens `f:<field>`, `k:<json of the item's key fields>`, `v:<json value>`
// (set items) and `i:<index>` (items of lists without keys).

export type Token = string;
export type FieldPath = Token[];

export const field = (name: string): Token => `f:${name}`;

/** The JSON of a `k:` token, parsed; undefined for other tokens. */
export function keyOf(token: Token): Record<string, unknown> | undefined {
  return token.startsWith("k:") ? (JSON.parse(token.slice(2)) as Record<string, unknown>) : undefined;
}

/** Whether a list item matches the key fields of a `k:` token. */
export function itemMatchesKey(item: unknown, key: Record<string, unknown>): boolean {
  if (!item || typeof item !== "object") return false;
  const record = item as Record<string, unknown>;
  return Object.entries(key).every(([name, value]) => sameScalar(record[name], value));
}

// Key fields the API server defaults when Git leaves them out.
const keyDefaults: Record<string, unknown> = { protocol: "TCP" };

/**
 * Index of the item a key names: the exact match, else the one item that matches once key
 * fields left out on either side take their default. Git often leaves `protocol: TCP` out of a
 * port and the API server fills it in; that is still the same port, while 443/UDP is another.
 */
export function findItem(
  list: unknown[],
  key: Record<string, unknown>,
  keyFields: string[] = Object.keys(key),
): number {
  const exact = list.findIndex((item) => itemMatchesKey(item, key));
  if (exact >= 0) return exact;
  const fields = [...new Set([...keyFields, ...Object.keys(key)])];
  const partial = list.flatMap((item, index) => {
    if (!item || typeof item !== "object") return [];
    const record = item as Record<string, unknown>;
    const matches = fields.every((name) => {
      const a = record[name] ?? keyDefaults[name];
      const b = key[name] ?? keyDefaults[name];
      return a === undefined ? b === undefined : sameScalar(a, b);
    });
    return matches ? [index] : [];
  });
  return partial.length === 1 ? partial[0]! : -1;
}

// Key values are scalars (names, ports, protocols); numbers may come back as strings.
function sameScalar(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && String(a) === String(b));
}

/** A `k:` token for an item, given the list's key field names; undefined if the item lacks a key. */
export function keyToken(item: unknown, keyFields: string[]): Token | undefined {
  if (!item || typeof item !== "object") return undefined;
  const record = item as Record<string, unknown>;
  const key: Record<string, unknown> = {};
  for (const name of [...keyFields].sort()) {
    if (record[name] === undefined) continue;
    key[name] = record[name];
  }
  return Object.keys(key).length > 0 ? `k:${JSON.stringify(key)}` : undefined;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointer(segments: Array<string | number>): string {
  return segments.map((s) => `/${escapePointer(s)}`).join("");
}

/** A stable string for a path, for maps and sets. */
export function pathKey(path: FieldPath): string {
  return path.join("\u0000");
}
