// What the worker side of the app (job -> scan -> GitHub) is given by the process that runs it:
// what the modes are given (mode-deps.ts), and what only the worker's own steps use.
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import type { SessionPool } from "../live/session-pool.ts";
import type { ModeDeps } from "../modes/mode-deps.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { WatchTriggers } from "./watch-triggers.ts";

export interface WorkerDeps extends ModeDeps {
  registry: ClusterRegistry;
  /** Where repository snapshots are cached by commit (UNDRIFT_SNAPSHOT_DIR). */
  snapshotDir: string;
  /** GitHub's web host, which a reconciler's source URL names (GHE_HOST); github.com when absent. */
  githubHost?: string;
  log: QueueLog;
  /** Cluster sessions shared by the scans of one cluster that run at the same time; scanHandlers makes one. */
  sessions?: SessionPool;
  /** With watching sessions: each scanned target is tracked, so a change to its objects queues its scan. */
  triggers?: WatchTriggers;
}
