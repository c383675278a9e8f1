// Discovery and the tracking-selector LISTs of one cluster, shared by the scans
// that run together: a preview scans head and base of a target, and the app
// scans many targets of one cluster. Each answer is asked for once per session,
// and a session is short-lived (one preview, one batch of scans) so no scan
// judges drift on a LIST older than the run it belongs to.
//
//   const session = new ClusterSession(kubeConfig);
//   await runScan({ ..., session }); await runScan({ ..., session });  // discovery and LISTs once
import type { KubeConfig } from "@kubernetes/client-node";
import { discover, type ResourceIndex } from "./discovery.ts";
import { listTracked, type Tracked } from "./fetch-live.ts";
import { KubeClient } from "./kube-client.ts";

export class ClusterSession {
  readonly client: KubeClient;
  private index?: Promise<ResourceIndex>;
  private readonly tracked = new Map<string, Promise<Tracked>>();

  constructor(kubeConfig: KubeConfig) {
    this.client = new KubeClient(kubeConfig);
  }

  /** The cluster's kinds, discovered on first use. */
  discover(): Promise<ResourceIndex> {
    this.index ??= this.remember(discover(this.client), () => {
      this.index = undefined;
    });
    return this.index;
  }

  /** Every object carrying `selector`, listed on first use for that selector. */
  listTracked(selector: string): Promise<Tracked> {
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
