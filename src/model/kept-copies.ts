// A bounded map of values kept as copies: what goes in and what comes out are
// structuredClones, so no caller's edit reaches another's; the bound is
// RecentMap's (least recently used first). For answers a worker reuses across
// jobs that callers may edit: dry-runs.
import { RecentMap } from "./recent-map.ts";

export class KeptCopies<V> {
  private readonly kept: RecentMap<V>;

  constructor(maxEntries: number) {
    this.kept = new RecentMap(maxEntries);
  }

  /** A copy of the kept value; a hit counts as the most recently used. */
  get(key: string): V | undefined {
    const value = this.kept.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  set(key: string, value: V): void {
    this.kept.set(key, structuredClone(value));
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
