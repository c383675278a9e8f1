// What the web side of the app (webhook -> job) is given by the process that runs it.
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";

/** The queues webhooks feed, and the cluster registry to refuse targets with before they are scheduled. */
export interface AppDeps {
  queues: UndriftQueues;
  /**
   * The registry (UNDRIFT_CLUSTERS). A web process without it schedules every
   * target and leaves refusals to the workers, which always check again.
   */
  registry?: ClusterRegistry;
}
