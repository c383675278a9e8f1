// A bounded map of values kept as copies: what goes in and what comes out are
// structuredClones, so no caller's edit reaches another's, and over the bound
// the least recently used goes first (a Map keeps insertion order, and a hit
// re-inserts). For answers a worker reuses across jobs: dry-runs, configs.

export class KeptCopies<V> {
  private readonly kept = new Map<string, V>();
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  /** A copy of the kept value; a hit counts as the most recently used. */
  get(key: string): V | undefined {
    const value = this.kept.get(key);
    if (value === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, value);
    return structuredClone(value);
  }

  set(key: string, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, structuredClone(value));
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
