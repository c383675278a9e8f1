// One kind's objects carrying a label selector, kept current by a LIST and
// then a WATCH from the list's resourceVersion, as client-go's reflector does:
//   - the watch asks for bookmarks, so its resourceVersion moves on while
//     nothing it selects changes, and a resume never starts from far back;
//   - a watch the server ends (its timeout) or that breaks is resumed from the
//     last resourceVersion: no event is missed, nothing is listed again;
//   - 410 Gone (the resourceVersion is older than what the server still has),
//     as the watch's HTTP status or as an ERROR event, means LIST again.
// The objects are current only while the watch is open: between a break and
// the resume they may lag, and `current()` says so; the caller then LISTs.
//
//   const w = new KindWatch({ client, resource, selector: "undrift.dev/target", metadataOnly: false });
//   w.start(); await w.synced; w.current() && w.objects();   ... w.stop();
import { nameKeyOf } from "../model/object-key.ts";
import type { KubeObject } from "../model/types.ts";
import type { ApiResource } from "./discovery.ts";
import { KubeApiError } from "./errors.ts";
import type { KubeClient, WatchEvent } from "./kube-client.ts";
import { collectionPath, listObjectsAt } from "./list-objects.ts";

/** listing: the first LIST (or a relist) runs; watching: current; resuming: between a break and the next watch; refused: the identity may not list or watch it. */
export type WatchState = "listing" | "watching" | "resuming" | "refused" | "stopped";

/** A change the watch saw on one object (after the first LIST); a relist reports what it found different. */
export type WatchChange = (change: { type: "ADDED" | "MODIFIED" | "DELETED"; object: KubeObject }) => void;

/** What the watch cost and went through, for stats and tests. */
export interface WatchCounts {
  lists: number;
  watches: number;
  /** Relists because the server answered 410 Gone. */
  expired: number;
  /** Watches resumed from the last resourceVersion after a break or the server's timeout. */
  resumed: number;
}

const minBackoffMs = 500;
const maxBackoffMs = 30_000;
/** After a refusal (403), ask again this much later: a Role may be granted meanwhile. */
const refusedRetryMs = 5 * 60_000;
/** The server ends each watch after about this long (randomized, as the reflector's 5–10 minutes). */
const watchTimeoutSeconds = () => 300 + Math.floor(Math.random() * 300);

/** A metadata watch's events carry PartialObjectMetadata, as the garbage collector's metadata informers ask. */
const metadataWatchAccept = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";

/** Whether two versions of an object differ only in what status writes touch (resourceVersion, status's managedFields). */
function sameConfiguration(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { resourceVersion: _rv, managedFields, ...metadata } = o.metadata;
    const fields = (managedFields ?? []).filter((f) => (f as { subresource?: string }).subresource !== "status");
    return JSON.stringify({ ...o, metadata: { ...metadata, managedFields: fields } });
  };
  return strip(a) === strip(b);
}

export class KindWatch {
  readonly resource: ApiResource;
  readonly selector: string;
  readonly metadataOnly: boolean;
  readonly counts: WatchCounts = { lists: 0, watches: 0, expired: 0, resumed: 0 };
  /** Why the identity may not list or watch the kind, once refused. */
  refusal?: KubeApiError;
  /** Resolves once the first LIST is in, or the first attempt failed (refused, unreachable); never rejects. */
  readonly synced: Promise<void>;
  private readonly client: KubeClient;
  private readonly onChange: WatchChange | undefined;
  private readonly items = new Map<string, KubeObject>();
  private resourceVersion: string | undefined;
  private state_: WatchState = "listing";
  private stopStream: (() => void) | undefined;
  private wake: (() => void) | undefined;
  private markSynced: () => void = () => undefined;
  private readonly waiters = new Set<() => void>();

  constructor(params: {
    client: KubeClient;
    resource: ApiResource;
    selector: string;
    metadataOnly: boolean;
    onChange?: WatchChange;
  }) {
    this.client = params.client;
    this.resource = params.resource;
    this.selector = params.selector;
    this.metadataOnly = params.metadataOnly;
    this.onChange = params.onChange;
    this.synced = new Promise((resolve) => {
      this.markSynced = resolve;
    });
  }

  private get stopped(): boolean {
    return this.state_ === "stopped";
  }

  get state(): WatchState {
    return this.state_;
  }

  /** Starts listing and watching; runs until stop(). */
  start(): void {
    void this.run();
  }

  stop(): void {
    this.setState("stopped");
    this.stopStream?.();
    this.wake?.();
  }

  /** Whether the objects are what the server has now: the watch is open, no event missed since the LIST. */
  current(): boolean {
    return this.state_ === "watching";
  }

  /** Waits up to `ms` for the watch to be current (a resume after the server's timeout takes a round trip). */
  async whenCurrent(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.current()) {
      const left = deadline - Date.now();
      if (left <= 0 || this.state_ === "refused" || this.state_ === "stopped") return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
    return true;
  }

  /** Copies of the objects held (the caller may edit them), or of those `pick` picks. */
  objects(pick?: (object: KubeObject) => boolean): KubeObject[] {
    const picked = pick ? [...this.items.values()].filter(pick) : [...this.items.values()];
    return picked.map((o) => structuredClone(o));
  }

  get size(): number {
    return this.items.size;
  }

  private setState(state: WatchState): void {
    if (this.state_ === "stopped") return;
    this.state_ = state;
    for (const waiter of [...this.waiters]) waiter();
  }

  private async run(): Promise<void> {
    let backoff = minBackoffMs;
    while (this.state_ !== "stopped") {
      try {
        if (this.resourceVersion === undefined) await this.list();
        const broke = await this.watchOnce();
        if (broke) throw broke;
        backoff = minBackoffMs;
        this.counts.resumed++;
      } catch (error) {
        // An ask waiting for the first LIST hears of its failure at once (it LISTs itself, and fails the same way).
        this.markSynced();
        if (this.stopped) return;
        if (error instanceof KubeApiError && error.status === 410) {
          // The resourceVersion is gone from the server's history: only a new LIST tells what changed meanwhile.
          this.counts.expired++;
          this.resourceVersion = undefined;
          this.setState("listing");
          continue;
        }
        const refused = error instanceof KubeApiError && (error.status === 403 || error.status === 401);
        if (refused) {
          this.refusal = error;
          this.resourceVersion = undefined;
          this.setState("refused");
          this.markSynced();
          await this.sleep(refusedRetryMs);
          continue;
        }
        // A broken connection, a server going away: resume from the last resourceVersion, backing off.
        if (this.resourceVersion !== undefined) this.counts.resumed++;
        this.setState(this.resourceVersion === undefined ? "listing" : "resuming");
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, maxBackoffMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** A full LIST: the objects replaced, the differences from what was held told as changes. */
  private async list(): Promise<void> {
    this.counts.lists++;
    const { items, resourceVersion } = await listObjectsAt({
      client: this.client,
      resource: this.resource,
      labelSelector: this.selector,
      metadataOnly: this.metadataOnly,
    });
    const first = this.counts.lists === 1 && this.items.size === 0;
    const seen = new Set<string>();
    for (const item of items) {
      const key = nameKeyOf(item);
      seen.add(key);
      const before = this.items.get(key);
      const kept = this.keep(item);
      this.items.set(key, kept);
      if (first) continue;
      if (!before) this.onChange?.({ type: "ADDED", object: kept });
      else if (before.metadata.resourceVersion !== kept.metadata.resourceVersion)
        this.onChange?.({ type: "MODIFIED", object: kept });
    }
    for (const [key, before] of this.items) {
      if (seen.has(key)) continue;
      this.items.delete(key);
      this.onChange?.({ type: "DELETED", object: before });
    }
    this.resourceVersion = resourceVersion;
    this.markSynced();
  }

  /** One WATCH from the held resourceVersion, until the stream ends; returns the error if it broke. */
  private async watchOnce(): Promise<Error | undefined> {
    this.counts.watches++;
    const path = collectionPath(this.resource);
    // An ERROR event (410: the resourceVersion expired meanwhile) ends the watch; it is thrown once the stream is closed.
    let failure: KubeApiError | undefined;
    let stop: () => void = () => undefined;
    const stream = await this.client.watch(
      {
        method: "GET",
        path,
        query: {
          watch: 1,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: true,
          labelSelector: this.selector,
          timeoutSeconds: watchTimeoutSeconds(),
        },
        ...(this.metadataOnly ? { accept: metadataWatchAccept } : {}),
      },
      (event) => {
        if (event.type !== "ERROR") return this.apply(event);
        const status = event.object;
        failure ??= new KubeApiError({
          status: status.code ?? 0,
          reason: status.reason ?? "Error",
          message: status.message ?? "",
          verb: "WATCH",
          path,
        });
        stop();
      },
    );
    stop = stream.stop;
    this.stopStream = stream.stop;
    if (this.state_ === "stopped") stream.stop();
    else this.setState("watching");
    const broke = await stream.ended;
    this.stopStream = undefined;
    if (failure) throw failure;
    if (this.state_ !== "stopped") this.setState("resuming");
    return broke;
  }

  private apply(event: WatchEvent): void {
    const object = event.object;
    // A bookmark carries only a resourceVersion: where to resume from, without an object to change.
    if (object.metadata?.resourceVersion) this.resourceVersion = object.metadata.resourceVersion;
    if (event.type === "BOOKMARK") return;
    const typeMeta = { apiVersion: this.apiVersion(), kind: this.resource.kind };
    const kept = this.keep(Object.assign({ ...typeMeta }, object, typeMeta));
    const key = nameKeyOf(kept);
    const before = this.items.get(key);
    if (event.type === "DELETED") this.items.delete(key);
    else this.items.set(key, kept);
    // A controller writing status (a rollout's progress) changes nothing a scan compares: no scan for it.
    if (event.type === "MODIFIED" && before && sameConfiguration(before, kept)) return;
    this.onChange?.({ type: event.type as "ADDED" | "MODIFIED" | "DELETED", object: kept });
  }

  private apiVersion(): string {
    return this.resource.group ? `${this.resource.group}/${this.resource.version}` : this.resource.version;
  }

  /** What the comparison needs of an object: all but its status (never compared) and, for metadata, its managedFields. */
  private keep(object: KubeObject): KubeObject {
    const { status: _status, ...rest } = object as KubeObject & { status?: unknown };
    if (this.metadataOnly) delete rest.metadata.managedFields;
    return rest as KubeObject;
  }
}
