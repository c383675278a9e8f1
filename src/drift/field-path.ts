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

/**
 * Index of the item a key names: the exact match, else the one item that agrees on every key
 * field both sides set. Git often leaves a defaulted key field out (a port's `protocol: TCP`),
 * and the API server fills it in; the port is still the same port.
 */
export function findItem(list: unknown[], key: Record<string, unknown>): number {
  const exact = list.findIndex((item) => itemMatchesKey(item, key));
  if (exact >= 0) return exact;
  const partial = list.flatMap((item, index) => {
    if (!item || typeof item !== "object") return [];
    const record = item as Record<string, unknown>;
    const shared = Object.keys(key).filter((name) => record[name] !== undefined);
    return shared.length > 0 && shared.every((name) => sameScalar(record[name], key[name])) ? [index] : [];
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
