// Every Prometheus series undrift exports, in one registry per process (web and
// workers in one `undrift start` share it). Labels carry repositories, targets,
// clusters, queues and statuses only: never an object's name, never a value.
//
//   metrics.drift.set({ repo, target, cluster, status: "drifted" }, 2);
//   res.end(await metrics.registry.metrics());
//
// The process-wide instance is `metrics`; tests may make their own with createMetrics().
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** A queue's job counts by state, read from Redis at scrape time (BullMQ getJobCounts). */
export type QueueDepths = () => Promise<Array<{ queue: string; counts: Record<string, number> }>>;

export interface UndriftMetrics {
  readonly registry: Registry;
  /** Objects of the target's last scan by status: drifted, missing, orphaned. */
  readonly drift: Gauge<"repo" | "target" | "cluster" | "status">;
  /** How long a scan took (render, LISTs, dry-runs), by cluster. */
  readonly scanDuration: Histogram<"cluster">;
  /** Scans by cluster and result: in-sync, drifted, failed, skipped. */
  readonly scans: Counter<"cluster" | "result">;
  /** Kubernetes API requests one scan sent, by HTTP verb (GET: discovery, LIST, GET; PATCH: dry-run applies). */
  readonly scanRequests: Histogram<"cluster" | "verb">;
  /** Unix seconds of the target's last scan that finished. */
  readonly lastSuccess: Gauge<"repo" | "target" | "cluster">;
  /** Jobs by queue and state. */
  readonly queueJobs: Gauge<"queue" | "state">;
  /** GitHub API answers by HTTP status ("error" when none came back). */
  readonly githubRequests: Counter<"status">;
  /** x-ratelimit-remaining of the installation's last answer. */
  readonly githubRateLimit: Gauge<"installation">;
  /** Objects heal applied Git to, by result: healed, failed. */
  readonly heals: Counter<"repo" | "target" | "cluster" | "result">;
  /** Orphans prune deleted, or was refused by a guard or a failure. */
  readonly prunes: Counter<"repo" | "target" | "cluster" | "result">;
  /** Fields heal stopped healing because a program kept changing them back. */
  readonly fights: Counter<"repo" | "target" | "cluster">;
  /** Where the queue depth gauge reads from, until the returned function is called (the queues closed). */
  watchQueues(depths: QueueDepths): () => void;
}

/** Scans take from under a second (a few objects) to minutes (thousands over a slow link). */
const SCAN_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const SCAN_REQUESTS = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000];

export function createMetrics(): UndriftMetrics {
  const registry = new Registry();
  // Process CPU, memory, event loop lag and open handles, as every Node exporter has them.
  collectDefaultMetrics({ register: registry, prefix: "undrift_process_" });
  const registers = [registry];
  const sources: QueueDepths[] = [];
  const queueJobs = new Gauge({
    name: "undrift_queue_jobs",
    help: "Jobs in each undrift queue by state, read from Redis at scrape time.",
    labelNames: ["queue", "state"] as const,
    registers,
    async collect() {
      // A Redis outage must not fail the whole scrape: the other series still answer, this one is left as it was.
      const read = await Promise.all(sources.map((depths) => depths().catch(() => [])));
      for (const { queue, counts } of read.flat())
        for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
    },
  });
  return {
    registry,
    drift: new Gauge({
      name: "undrift_drift_objects",
      help: "Objects of a target's last scan that are drifted, missing from the cluster, or orphaned.",
      labelNames: ["repo", "target", "cluster", "status"] as const,
      registers,
    }),
    scanDuration: new Histogram({
      name: "undrift_scan_duration_seconds",
      help: "How long a scan took: render, discovery, LISTs and dry-runs.",
      labelNames: ["cluster"] as const,
      buckets: SCAN_SECONDS,
      registers,
    }),
    scans: new Counter({
      name: "undrift_scans_total",
      help: "Scans run, by cluster and result (in-sync, drifted, failed, skipped).",
      labelNames: ["cluster", "result"] as const,
      registers,
    }),
    scanRequests: new Histogram({
      name: "undrift_scan_api_requests",
      help: "Kubernetes API requests one scan sent, by verb (GET: discovery, LIST, GET; PATCH: dry-run applies).",
      labelNames: ["cluster", "verb"] as const,
      buckets: SCAN_REQUESTS,
      registers,
    }),
    lastSuccess: new Gauge({
      name: "undrift_last_successful_scan_timestamp_seconds",
      help: "When the target's last scan finished, in Unix seconds.",
      labelNames: ["repo", "target", "cluster"] as const,
      registers,
    }),
    queueJobs,
    githubRequests: new Counter({
      name: "undrift_github_requests_total",
      help: "GitHub API requests by the status of the answer (error: no answer).",
      labelNames: ["status"] as const,
      registers,
    }),
    githubRateLimit: new Gauge({
      name: "undrift_github_rate_limit_remaining",
      help: "Requests the installation has left in its GitHub rate limit window (x-ratelimit-remaining).",
      labelNames: ["installation"] as const,
      registers,
    }),
    heals: new Counter({
      name: "undrift_heals_total",
      help: "Objects heal applied Git to, by result (healed, failed).",
      labelNames: ["repo", "target", "cluster", "result"] as const,
      registers,
    }),
    prunes: new Counter({
      name: "undrift_prunes_total",
      help: "Orphans pruned (deleted) or not pruned (refused).",
      labelNames: ["repo", "target", "cluster", "result"] as const,
      registers,
    }),
    fights: new Counter({
      name: "undrift_heal_fights_total",
      help: "Fields heal stopped healing because a program kept changing them back.",
      labelNames: ["repo", "target", "cluster"] as const,
      registers,
    }),
    watchQueues(depths) {
      sources.push(depths);
      return () => {
        const at = sources.indexOf(depths);
        if (at >= 0) sources.splice(at, 1);
      };
    },
  };
}

/** The process's metrics, served on /metrics by the web server or the worker's own. */
export const metrics: UndriftMetrics = createMetrics();
