// A worker's watches of one cluster: one KindWatch per (kind, selector, full or
// metadata), started the first time a scan asks for that LIST and answering
// every later ask from memory while the watch is current. A scan's kinds are
// what its target's objects can be: in full those it declares, metadata only
// the others (they can only hold orphans), as listTracked asks for them.
//
//   const cache = new WatchCache({ kubeConfig });
//   const answer = await cache.objects(resource, "undrift.dev/target", false);
//   answer.source === "watch" ? answer.objects : listObjects(...)   // "unsynced" or "refused": LIST it
//
// The cache keeps its own client, so its LISTs and WATCHes are never counted
// as a scan's requests: a scan answered from it costs none. A full watch of a
// kind answers a metadata ask too, and replaces a metadata watch of the same
// kind once synced. A watch no scan asked for in `idleMs` is stopped. The
// cache also keeps the scans' dry-run answers (DryRunMemo), which go with it.
import type { KubeConfig } from "@kubernetes/client-node";
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { DryRunMemo } from "./dry-run-memo.ts";
import type { KubeApiError } from "./errors.ts";
import { KubeClient } from "./kube-client.ts";
import { KindWatch, type WatchChange, type WatchCounts } from "./watch-kind.ts";

/** From the watch (current), or why a LIST must answer: the watch is not current, or the identity may not watch. */
export type CachedAnswer =
  | { source: "watch"; objects: KubeObject[] }
  | { source: "unsynced" }
  | { source: "refused"; refusal: KubeApiError };

/** What the cache holds and what it cost, for stats and the benchmark. */
export interface WatchCacheStats extends WatchCounts {
  watches: number;
  current: number;
  objects: number;
}

interface Entry {
  watch: KindWatch;
  usedAt: number;
}

export class WatchCache {
  readonly client: KubeClient;
  /** Dry-run answers by the live object's state and the request, kept while the watches are (ClusterSession). */
  readonly dryRuns: DryRunMemo;
  private readonly entries = new Map<string, Entry>();
  private readonly onChange: WatchChange | undefined;
  private readonly waitMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private stopped = false;

  constructor(params: {
    kubeConfig: KubeConfig;
    /** Every change seen on a watched object, after its kind's first LIST. */
    onChange?: WatchChange;
    /** How long an ask waits for a watch to be current (its first LIST, a resume) before a LIST answers it. */
    waitMs?: number;
    idleMs?: number;
    now?: () => number;
  }) {
    // Watches stay open for minutes: the client's socket timeout is the watch's own idle limit, not 60 s.
    this.client = new KubeClient(params.kubeConfig);
    this.onChange = params.onChange;
    this.waitMs = params.waitMs ?? 5_000;
    this.idleMs = params.idleMs ?? 60 * 60_000;
    this.now = params.now ?? Date.now;
    this.dryRuns = new DryRunMemo({ now: this.now });
  }

  /**
   * The objects of `resource` carrying `selector` (copies; with `pick`, of those it picks), from a current
   * watch; the first ask starts the watch.
   */
  async objects(
    resource: ApiResource,
    selector: string,
    metadataOnly: boolean,
    pick?: (object: KubeObject) => boolean,
  ): Promise<CachedAnswer> {
    // A stopped cache (its lease went to another worker) starts nothing: the scan LISTs.
    if (this.stopped) return { source: "unsynced" };
    this.sweep();
    const full = this.entry(resource, selector, false, !metadataOnly);
    const meta = metadataOnly && !full ? this.entry(resource, selector, true, true) : undefined;
    const entry = (full ?? meta)!;
    entry.usedAt = this.now();
    const { watch } = entry;
    await watch.synced;
    // A kind the identity may list but not watch is refused only after its LIST: the WATCH is asked after it.
    const current = await watch.whenCurrent(this.waitMs);
    if (watch.refusal && watch.state === "refused") return { source: "refused", refusal: watch.refusal };
    if (!current || this.stopped) return { source: "unsynced" };
    if (!metadataOnly) this.dropMetadata(resource, selector);
    return { source: "watch", objects: watch.objects(pick) };
  }

  /** Stops every watch. */
  stop(): void {
    this.stopped = true;
    for (const { watch } of this.entries.values()) watch.stop();
    this.entries.clear();
    this.dryRuns.clear();
  }

  stats(): WatchCacheStats {
    const stats: WatchCacheStats = { watches: 0, current: 0, objects: 0, lists: 0, expired: 0, resumed: 0 };
    for (const { watch } of this.entries.values()) {
      stats.watches++;
      if (watch.current()) stats.current++;
      stats.objects += watch.size;
      stats.lists += watch.counts.lists;
      stats.expired += watch.counts.expired;
      stats.resumed += watch.counts.resumed;
    }
    return stats;
  }

  /** The entry of this watch; with `start`, made and started when missing. */
  private entry(resource: ApiResource, selector: string, metadataOnly: boolean, start: boolean): Entry | undefined {
    const key = keyOf(resource, selector, metadataOnly);
    let entry = this.entries.get(key);
    if (!entry && start) {
      const watch = new KindWatch({
        client: this.client,
        resource,
        selector,
        metadataOnly,
        ...(this.onChange ? { onChange: this.onChange } : {}),
      });
      entry = { watch, usedAt: this.now() };
      this.entries.set(key, entry);
      watch.start();
    }
    return entry;
  }

  /** A metadata watch of a kind that is now watched in full costs a stream and memory for nothing. */
  private dropMetadata(resource: ApiResource, selector: string): void {
    const key = keyOf(resource, selector, true);
    this.entries.get(key)?.watch.stop();
    this.entries.delete(key);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (now - entry.usedAt < this.idleMs) continue;
      entry.watch.stop();
      this.entries.delete(key);
    }
  }
}

const keyOf = (r: ApiResource, selector: string, metadataOnly: boolean) =>
  `${r.group}/${r.version}/${r.resource}|${selector}|${metadataOnly ? "metadata" : "full"}`;
