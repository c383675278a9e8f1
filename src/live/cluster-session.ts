// Discovery (through the disk cache, see discovery-cache.ts) and the tracking-selector LISTs of one cluster, shared by the scans
// that run together: a preview scans head and base of a target, and the app's
// worker scans the targets of one cluster whose jobs run at the same time
// (SessionPool). Each answer is asked for once per session, and a session is
// short-lived (one preview, one burst of jobs) so no scan judges drift on a
// LIST older than the run it belongs to.
//
//   const session = new ClusterSession(kubeConfig);
//   await runScan({ ..., session }); await runScan({ ..., session });  // discovery and LISTs once
//
// Dry-runs are shared too: the same object dry-run with the same field manager
// gets the answer once per session (a preview's base and head scans confirm
// every object the pull request leaves alone twice otherwise). With watches,
// an answer outlives the session: a dry-run judged against a live object that
// has not been written since, with the same request, is answered from the
// cache's DryRunMemo, and nothing is sent.
//
// With `shareLists`, a selector `key=value` is answered from one LIST by `key`
// alone, filtered here the way the API server filters: every target that uses
// the default `undrift.dev/target=<name>` costs the same LISTs as one. Each
// scan gets its own copies of the objects, so no scan sees another's edits.
// LISTs are kept per kind, in full or metadata only: a metadata LIST is answered
// from a full one of the same kind when the session has it.
//
// With `watches` (a worker's WatchCache of the cluster), a LIST is answered
// from the cluster's watch of that kind when it is current, and sent only when
// it is not (or the identity may not watch the kind); each scan's Tracked says
// which kinds came from where.
import type { KubeConfig } from "@kubernetes/client-node";
import { matchesSelector } from "../config/matches-selector.ts";
import { parseLabelSelector } from "../config/parse-label-selector.ts";
import type { KubeObject } from "../model/types.ts";
import { applyObject } from "./apply-object.ts";
import { createObject } from "./create-object.ts";
import { type ApiResource, discover, type ResourceIndex } from "./discovery.ts";
import { DiscoveryCache } from "./discovery-cache.ts";
import type { KubeApiError } from "./errors.ts";
import { type ListSources, listTracked, type Tracked } from "./fetch-live.ts";
import { KubeClient } from "./kube-client.ts";
import { listObjects } from "./list-objects.ts";
import type { CachedAnswer, WatchCache } from "./watch-cache.ts";

export interface DryRunParams {
  resource: ApiResource;
  object: KubeObject;
  fieldManager: string;
  /** The live object the answer is judged against: with watches, an unchanged one reuses an earlier answer. */
  live?: KubeObject;
}

export interface DryRunAnswer {
  object: KubeObject;
  /** Answered from an earlier scan's dry-run of the same request against the same live object: nothing sent. */
  reused: boolean;
}

/** One kind's LIST, and where it came from: a current watch, or the API server (with why, when a watch was refused). */
interface Listed {
  objects: KubeObject[];
  source: "watch" | "list";
  refusal?: KubeApiError;
}

export class ClusterSession {
  readonly client: KubeClient;
  private readonly shareLists: boolean;
  private readonly cache: DiscoveryCache | undefined;
  private index?: Promise<ResourceIndex>;
  private readonly lists = new Map<string, Promise<Listed>>();
  private readonly watches: WatchCache | undefined;
  private readonly dryRuns = new Map<string, Promise<KubeObject>>();

  constructor(
    kubeConfig: KubeConfig,
    options: { shareLists?: boolean; discoveryCache?: DiscoveryCache | undefined; watches?: WatchCache } = {},
  ) {
    this.watches = options.watches;
    this.client = new KubeClient(kubeConfig);
    this.shareLists = options.shareLists ?? false;
    this.cache = "discoveryCache" in options ? options.discoveryCache : DiscoveryCache.fromEnv();
  }

  /** The cluster's kinds, discovered on first use (from the disk cache when it holds them). */
  discover(): Promise<ResourceIndex> {
    this.index ??= this.remember(discover(this.client, { cache: this.cache }), () => {
      this.index = undefined;
    });
    return this.index;
  }

  /** The cluster's kinds asked of the server again, past the cache: it named a kind the server no longer serves, or lacked one. */
  rediscover(): Promise<ResourceIndex> {
    this.index = this.remember(discover(this.client, { cache: this.cache, refresh: true }), () => {
      this.index = undefined;
    });
    return this.index;
  }

  /** Every object carrying `selector`: in full for the kinds in `declared`, metadata only for the rest. */
  async listTracked(selector: string, declared: Promise<Set<string>>, index?: ResourceIndex): Promise<Tracked> {
    const sources: ListSources = { watched: 0, listed: 0, refused: [] };
    const tracked = await listTracked({
      index: index ?? (await this.discover()),
      declared,
      list: async (resource, metadataOnly) => {
        const listed = await this.listKind(resource, selector, metadataOnly);
        if (listed.source === "watch") sources.watched++;
        else sources.listed++;
        if (listed.refusal) sources.refused.push({ resource, refusal: listed.refusal });
        return listed.objects;
      },
    });
    if (this.watches) tracked.sources = sources;
    return tracked;
  }

  /** A server-side dry-run apply (force) of `object`: what applying it would leave. Each caller gets its own copy. */
  dryRunApply(params: DryRunParams): Promise<DryRunAnswer> {
    const { resource, object, fieldManager } = params;
    return this.dryRun("apply", params, () =>
      applyObject({ client: this.client, resource, object, fieldManager, force: true, dryRun: true }),
    );
  }

  /** A dry-run create of `object`: the object as the server would store it, its defaults filled in. */
  dryRunCreate(params: DryRunParams): Promise<DryRunAnswer> {
    const { resource, object, fieldManager } = params;
    return this.dryRun("create", params, () =>
      createObject({ client: this.client, resource, object, fieldManager, dryRun: true }),
    );
  }

  private async dryRun(
    verb: "apply" | "create",
    params: DryRunParams,
    send: () => Promise<KubeObject>,
  ): Promise<DryRunAnswer> {
    const { object, fieldManager, live } = params;
    const memo = this.watches?.dryRuns;
    const kept = memo && live ? memo.keyOf(verb, fieldManager, live, object) : undefined;
    const known = kept ? memo?.get(kept) : undefined;
    if (known) return { object: known, reused: true };
    const key = `${verb}|${fieldManager}|${JSON.stringify(object)}`;
    let answer = this.dryRuns.get(key);
    if (!answer) {
      answer = this.remember(send(), () => this.dryRuns.delete(key));
      this.dryRuns.set(key, answer);
    }
    const result = await answer;
    if (kept) memo?.set(kept, result);
    return { object: structuredClone(result), reused: false };
  }

  /** One kind's objects carrying `selector`; each caller gets its own copies when the session is shared. */
  private async listKind(resource: ApiResource, selector: string, metadataOnly: boolean): Promise<Listed> {
    const requirements = parseLabelSelector(selector);
    const only = requirements.length === 1 ? requirements[0] : undefined;
    if (!this.shareLists || only?.operator !== "=") return this.list(resource, selector, metadataOnly);
    // The cache holds every target's objects of the kind (20,000 at 1,000 targets of 20): only this target's
    // are copied out of it, or each scan would copy them all.
    const pick = (o: KubeObject) => matchesSelector(o.metadata.labels, requirements);
    const cached = await this.watches?.objects(resource, only.key, metadataOnly, pick);
    if (cached?.source === "watch") return { objects: cached.objects, source: "watch" };
    const all = await this.list(resource, only.key, metadataOnly, cached);
    const objects = all.objects
      .filter((o) => matchesSelector(o.metadata.labels, requirements))
      .map((o) => structuredClone(o));
    return { ...all, objects };
  }

  /** The LIST of one kind by `selector`, sent on first use; `cached`, the watches' answer when already asked. */
  private list(resource: ApiResource, selector: string, metadataOnly: boolean, cached?: CachedAnswer): Promise<Listed> {
    const kind = `${resource.group}/${resource.version}/${resource.resource}|${selector}`;
    const fullList = this.lists.get(`full|${kind}`);
    if (metadataOnly && fullList) return fullList;
    const key = `${metadataOnly ? "metadata" : "full"}|${kind}`;
    let answer = this.lists.get(key);
    if (!answer) {
      answer = this.remember(this.fetchList(resource, selector, metadataOnly, cached), () => this.lists.delete(key));
      this.lists.set(key, answer);
    }
    return answer;
  }

  /** From the cluster's watch when it is current, else a LIST. */
  private async fetchList(
    resource: ApiResource,
    selector: string,
    metadataOnly: boolean,
    asked?: CachedAnswer,
  ): Promise<Listed> {
    const cached = asked ?? (await this.watches?.objects(resource, selector, metadataOnly));
    if (cached?.source === "watch") return { objects: cached.objects, source: "watch" };
    const objects = await listObjects({ client: this.client, resource, labelSelector: selector, metadataOnly });
    return { objects, source: "list", ...(cached?.source === "refused" ? { refusal: cached.refusal } : {}) };
  }

  /** A failed answer is forgotten, so the next scan asks again rather than inheriting a passing outage. */
  private remember<T>(answer: Promise<T>, forget: () => void): Promise<T> {
    answer.catch(forget);
    return answer;
  }
}
