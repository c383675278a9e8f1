// What the worker side of the app (job -> scan -> GitHub) is given by the process that runs it.
import type { Probot } from "probot";
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import type { SessionPool } from "../live/session-pool.ts";
import type { FightPolicy } from "../plan/fight-policy.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import type { WatchTriggers } from "./watch-triggers.ts";

export interface WorkerDeps {
  /** Made with Probot's own options; `probot.auth(installationId)` gives each job its installation's client. */
  probot: Probot;
  /** For the Redis connection (ETags, audit) and to hand a scan to another cluster's queue. */
  queues: UndriftQueues;
  registry: ClusterRegistry;
  /** Where repository snapshots are cached by commit (UNDRIFT_SNAPSHOT_DIR). */
  snapshotDir: string;
  log: QueueLog;
  /** When heal stops healing a field a program keeps changing back: K heals (default 3) within a window (default 1h). */
  healFights?: Partial<FightPolicy>;
  /** The clock snoozes are judged by (epoch ms); tests move it. Default Date.now. */
  now?: () => number;
  /** Cluster sessions shared by the scans of one cluster that run at the same time; scanHandlers makes one. */
  sessions?: SessionPool;
  /** With watching sessions: each scanned target is tracked, so a change to its objects queues its scan. */
  triggers?: WatchTriggers;
}
