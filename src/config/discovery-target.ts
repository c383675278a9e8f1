// The app's stand-in target for one `discover:` entry: its scheduler ticks like
// a target's, on the entry's cluster queue, and a worker that takes the tick
// reads the cluster's reconcilers and queues a scan of each target they name
// (worker/process-discovery.ts). The web process cannot do that itself: it has
// no cluster credentials. The name has an "@", which no target name (a DNS
// label) can have, so it never collides with a configured or discovered target.
//
//   discoveryTarget("prod")          // "discover@prod"
//   discoveryCluster("discover@prod") // "prod"; a target's name: undefined
import { z } from "zod";

const PREFIX = "discover@";

/** The scheduler target of the `discover:` entry of `cluster`. */
export function discoveryTarget(cluster: string): string {
  return `${PREFIX}${cluster}`;
}

/** The cluster a discovery target discovers on; undefined for a target's own name. */
export function discoveryCluster(target: string): string | undefined {
  return target.startsWith(PREFIX) ? target.slice(PREFIX.length) : undefined;
}

export const discoveryTargetSchema = z
  .string()
  .startsWith(PREFIX)
  .min(PREFIX.length + 1)
  .describe("The `discover:` entry of a cluster: its tick reads the cluster's reconcilers and queues their targets.");
