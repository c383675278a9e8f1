// A map bounded to the `maxEntries` most recently used keys: over the bound the
// least recently used goes first (a Map keeps insertion order, and a hit
// re-inserts). For what a worker reuses across jobs; KeptCopies adds copying
// for values that callers may edit.

export class RecentMap<V> {
  private readonly kept = new Map<string, V>();
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  /** The kept value; a hit counts as the most recently used. */
  get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, value);
    while (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value!);
  }

  delete(key: string): void {
    this.kept.delete(key);
  }

  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
  }
}
