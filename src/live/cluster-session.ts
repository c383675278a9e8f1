// Discovery and the tracking-selector LISTs of one cluster, shared by the scans
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
// every object the pull request leaves alone twice otherwise).
//
// With `shareLists`, a selector `key=value` is answered from one LIST by `key`
// alone, filtered here the way the API server filters: every target that uses
// the default `undrift.dev/target=<name>` costs the same LISTs as one. Each
// scan gets its own copies of the objects, so no scan sees another's edits.
import type { KubeConfig } from "@kubernetes/client-node";
import { matchesSelector } from "../config/matches-selector.ts";
import { parseLabelSelector } from "../config/parse-label-selector.ts";
import type { KubeObject } from "../model/types.ts";
import { applyObject } from "./apply-object.ts";
import { createObject } from "./create-object.ts";
import { type ApiResource, discover, type ResourceIndex } from "./discovery.ts";
import { listTracked, type Tracked } from "./fetch-live.ts";
import { KubeClient } from "./kube-client.ts";

export class ClusterSession {
  readonly client: KubeClient;
  private readonly shareLists: boolean;
  private index?: Promise<ResourceIndex>;
  private readonly tracked = new Map<string, Promise<Tracked>>();
  private readonly dryRuns = new Map<string, Promise<KubeObject>>();

  constructor(kubeConfig: KubeConfig, options: { shareLists?: boolean } = {}) {
    this.client = new KubeClient(kubeConfig);
    this.shareLists = options.shareLists ?? false;
  }

  /** The cluster's kinds, discovered on first use. */
  discover(): Promise<ResourceIndex> {
    this.index ??= this.remember(discover(this.client), () => {
      this.index = undefined;
    });
    return this.index;
  }

  /** Every object carrying `selector`. */
  async listTracked(selector: string): Promise<Tracked> {
    const requirements = parseLabelSelector(selector);
    const only = requirements.length === 1 ? requirements[0] : undefined;
    if (!this.shareLists || only?.operator !== "=") return this.list(selector);
    const all = await this.list(only.key);
    const objects = new Map<string, KubeObject>();
    for (const [key, object] of all.objects) {
      if (matchesSelector(object.metadata.labels, requirements)) objects.set(key, structuredClone(object));
    }
    return { objects, unlisted: new Map(all.unlisted) };
  }

  /** A server-side dry-run apply (force) of `object`: what applying it would leave. Each caller gets its own copy. */
  async dryRunApply(params: { resource: ApiResource; object: KubeObject; fieldManager: string }): Promise<KubeObject> {
    const { resource, object, fieldManager } = params;
    const answer = this.dryRun(`apply|${fieldManager}|${JSON.stringify(object)}`, () =>
      applyObject({ client: this.client, resource, object, fieldManager, force: true, dryRun: true }),
    );
    return structuredClone(await answer);
  }

  /** A dry-run create of `object`: the object as the server would store it, its defaults filled in. */
  async dryRunCreate(params: { resource: ApiResource; object: KubeObject; fieldManager: string }): Promise<KubeObject> {
    const { resource, object, fieldManager } = params;
    const answer = this.dryRun(`create|${fieldManager}|${JSON.stringify(object)}`, () =>
      createObject({ client: this.client, resource, object, fieldManager, dryRun: true }),
    );
    return structuredClone(await answer);
  }

  private dryRun(key: string, send: () => Promise<KubeObject>): Promise<KubeObject> {
    let answer = this.dryRuns.get(key);
    if (!answer) {
      answer = this.remember(send(), () => this.dryRuns.delete(key));
      this.dryRuns.set(key, answer);
    }
    return answer;
  }

  /** The LIST of `selector`, sent on first use. */
  private list(selector: string): Promise<Tracked> {
    let tracked = this.tracked.get(selector);
    if (!tracked) {
      tracked = this.remember(
        this.discover().then((index) => listTracked({ client: this.client, index, selector })),
        () => this.tracked.delete(selector),
      );
      this.tracked.set(selector, tracked);
    }
    return tracked;
  }

  /** A failed answer is forgotten, so the next scan asks again rather than inheriting a passing outage. */
  private remember<T>(answer: Promise<T>, forget: () => void): Promise<T> {
    answer.catch(forget);
    return answer;
  }
}
