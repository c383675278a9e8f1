// What the modes are given by the process that runs them: the part of the
// worker's deps (worker-deps.ts extends this) they use, so modes/ never
// imports worker/ (the layers, .dependency-cruiser.cjs).
import type { Probot } from "probot";
import type { FightPolicy } from "../plan/fight-policy.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";

export interface ModeDeps {
  /** Made with Probot's own options; `probot.auth(installationId)` gives each job its installation's client. */
  probot: Probot;
  /** For the Redis connection (ETags, audit) and to hand a scan to another cluster's queue. */
  queues: UndriftQueues;
  /** When heal stops healing a field a program keeps changing back: K heals (default 3) within a window (default 1h). */
  healFights?: Partial<FightPolicy>;
  /** The clock snoozes are judged by (epoch ms); tests move it. Default Date.now. */
  now?: () => number;
}
