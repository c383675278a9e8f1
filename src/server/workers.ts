// The worker side of a process (`undrift worker`, or `undrift start` beside the
// web side): a scan worker per cluster it serves, all the registry's by
// default, acting on GitHub as the app through `probot.auth(installationId)`.
import type { Probot } from "probot";
import type { ClusterRegistry } from "../config/cluster-registry.ts";
import { type ServerEnv, ServerEnvError } from "../config/server-env.ts";
import { createRedisConnection } from "../queue/connection.ts";
import type { UndriftQueues } from "../queue/create-queues.ts";
import { scanQueueName } from "../queue/jobs.ts";
import { type NotifyWorker, startNotifyWorker } from "../queue/notify-worker.ts";
import type { QueueLog } from "../queue/queue-log.ts";
import { type ScanWorkers, startScanWorkers } from "../queue/scan-worker.ts";
import { watchQueueDepths } from "../queue/watch-queue-depths.ts";
import { sendNotification } from "../worker/notify/send-notification.ts";
import { scanHandlers } from "../worker/scan-handlers.ts";
import { watchClusters } from "../worker/watch-clusters.ts";

/** Starts the workers; `clusters` must be names in the registry (default: all of them). */
export function startWorkers(params: {
  probot: Probot;
  queues: UndriftQueues;
  registry: ClusterRegistry;
  env: ServerEnv;
  clusters?: readonly string[];
  /** Where /healthz, /readyz and /metrics answer (the worker's own port, or the web server's), for the start line. */
  probes: string;
  log: QueueLog;
}): ScanWorkers {
  const { registry, env } = params;
  const known = Object.keys(registry.clusters);
  const clusters = params.clusters ?? known;
  const unknown = clusters.filter((name) => !Object.hasOwn(registry.clusters, name));
  if (unknown.length > 0) {
    throw new ServerEnvError(
      `--clusters: ${unknown.map((n) => `"${n}"`).join(", ")} not in the cluster registry ${env.clustersFile ?? ""} (it has: ${known.join(", ")})`,
    );
  }
  if (clusters.length === 0)
    throw new ServerEnvError(`UNDRIFT_CLUSTERS: ${env.clustersFile ?? ""} lists no cluster to serve`);
  // A worker connection waits out Redis outages, so a running scan keeps its lock and finishes.
  const connection = createRedisConnection({
    role: "worker",
    url: env.redisUrl,
    name: "undrift-worker",
    log: params.log,
  });
  // The cluster's watches live as long as the process, held by one worker process per cluster: scheduled
  // scans are answered from them without LISTs, and a change they see queues its target's scan.
  const watching = watchClusters({ queues: params.queues, connection, clusters, log: params.log });
  const workers = startScanWorkers({
    queues: params.queues,
    clusters,
    connection,
    concurrency: env.concurrency,
    fromWatches: watching.watching,
    log: params.log,
    handlers: scanHandlers({
      probot: params.probot,
      queues: params.queues,
      registry,
      snapshotDir: env.snapshotDir,
      githubHost: env.githubHost,
      log: params.log,
      sessions: watching.sessions,
      triggers: watching.triggers,
    }),
  });
  // Notifications are sent by any worker process of a server that defines channels; every such process shares the queue.
  const notifier: NotifyWorker | undefined =
    Object.keys(registry.channels ?? {}).length > 0
      ? startNotifyWorker({
          queues: params.queues,
          connection,
          log: params.log,
          send: (job, context) => sendNotification({ queues: params.queues, registry, job, context }),
        })
      : undefined;
  const unwatch = watchQueueDepths({ queues: params.queues, clusters, notify: notifier !== undefined });
  // One line an operator can read without a dashboard: what this process serves, from which queues, where it answers.
  const queues = clusters.map(scanQueueName);
  const served = clusters.map((name, i) => `${name} (queue ${queues[i]})`).join(", ");
  params.log.info(
    { clusters, queues, concurrency: env.concurrency, probes: params.probes },
    `undrift workers started for ${served}, ${env.concurrency} scans at once per cluster; /healthz, /readyz and /metrics on ${params.probes}`,
  );
  return {
    workers: workers.workers,
    async close(options) {
      unwatch();
      await Promise.all([workers.close(options), notifier?.close(options)]);
      await watching.close();
      await connection.quit();
      params.log.info({ clusters }, `undrift workers stopped for ${clusters.join(", ")}`);
    },
  };
}
