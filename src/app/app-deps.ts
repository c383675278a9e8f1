// What the web side of the app (webhook -> job) is given by the process that runs it.
import type { Probot } from "probot";
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import type { KeyValueStore } from "../github/key-value-store.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { OncePerDelivery } from "./once-per-delivery.ts";

/** The queues webhooks feed, and the cluster registry to refuse targets with before they are scheduled. */
export interface AppDeps {
  queues: UndriftQueues;
  /**
   * The registry (UNDRIFT_CLUSTERS). A web process without it schedules every
   * target and leaves refusals to the workers, which always check again.
   */
  registry?: ClusterRegistry;
}

/**
 * What each event's registration gets: the app to register on, its deps, the snapshot and ETag store,
 * and `once`, which each handler is wrapped in so that a redelivery (same delivery id) is not acted on twice.
 */
export interface AppWiring {
  app: Probot;
  deps: AppDeps;
  store: KeyValueStore;
  once: OncePerDelivery;
}
