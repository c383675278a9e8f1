// The web side of a process (`undrift web`, or `undrift start` with workers):
// Probot's own `run`, so without APP_ID and PRIVATE_KEY it serves Probot's
// setup page like any Probot app, and with them the webhooks. undrift's own
// environment is read inside the app, after Probot has loaded `.env`. Once
// the app is loaded, the schedulers are resynced with every installation
// (resync-at-boot.ts), alongside the server so that webhooks are not kept waiting.
// The server also answers /healthz, /readyz (Redis, the cluster registry, the
// App's credentials) and /metrics, for the web side and the workers beside it,
// and the status page under /status (src/app/status/, docs/status-page.md).
import { run } from "probot";
import { undriftApp } from "../app/app.ts";
import { resyncAtBoot } from "../app/resync-at-boot.ts";
import { statusRoutes } from "../app/status/status-routes.ts";
import { loadClusterRegistry } from "../config/cluster-registry.ts";
import { printableRedisUrl } from "../config/redis-url.ts";
import { parseServerEnv, ServerEnvError } from "../config/server-env.ts";
import { parseStatusEnv } from "../config/status-env.ts";
import { AppOctokit } from "../github/app-octokit.ts";
import { probeRoutes, type ReadinessCheck } from "../metrics/probe-routes.ts";
import { githubAppCheck, redisCheck, registryCheck } from "../metrics/readiness-checks.ts";
import { createRedisConnection } from "../queue/connection.ts";
import { createQueues } from "../queue/create-queues.ts";
import { watchQueueDepths } from "../queue/watch-queue-depths.ts";
import { startWorkers } from "./start-workers.ts";

/** Serves until `close()`; `workers` runs the scan workers in the same process, on the app's own Probot. */
export async function startWeb(params: { workers?: boolean }): Promise<{ close(): Promise<void> }> {
  let closeApp: (() => Promise<void>) | undefined;
  let resync: Promise<void> | undefined;
  let redisReady = () => true;
  const before = new Set(process.listeners("SIGINT"));
  const server = await run(
    async (app, options) => {
      // Read first, so that a mistake in them opens no connection to linger.
      const env = parseServerEnv(process.env);
      const statusEnv = parseStatusEnv(process.env);
      const registry = env.clustersFile ? await loadClusterRegistry(env.clustersFile) : undefined;
      if (!registry && params.workers)
        throw new ServerEnvError(
          "UNDRIFT_CLUSTERS: required: the path of the cluster registry (YAML) workers scan with",
        );
      if (!registry)
        app.log.warn(
          "UNDRIFT_CLUSTERS is not set: targets are scheduled unchecked, and workers refuse those their registry does not allow",
        );
      const producer = createRedisConnection({
        role: "producer",
        url: env.redisUrl,
        name: "undrift-web",
        log: app.log,
      });
      redisReady = () => producer.status === "ready";
      const queues = createQueues({ connection: producer, log: app.log });
      const unwatch = watchQueueDepths({ queues, clusters: registry ? Object.keys(registry.clusters) : [] });
      const closeQueues = async () => {
        unwatch();
        await queues.close();
        await producer.quit();
      };
      closeApp = closeQueues;
      const deps = { queues, ...(registry ? { registry } : {}) };
      await undriftApp(deps)(app, options);
      const checks: ReadinessCheck[] = [
        redisCheck(producer, printableRedisUrl(env.redisUrl)),
        ...(registry && env.clustersFile
          ? [registryCheck({ file: env.clustersFile, clusters: Object.keys(registry.clusters).length })]
          : []),
        githubAppCheck(async () => (await app.auth()).request("GET /app")),
      ];
      options.addHandler(probeRoutes({ checks }));
      options.addHandler(statusRoutes({ env: statusEnv, redis: producer, prefix: queues.prefix, log: app.log }));
      resync = resyncAtBoot({ deps, probot: app, log: app.log }).then(
        (changes) =>
          app.log.info(
            { created: changes.created, updated: changes.updated, removed: changes.removed },
            "schedulers resynced with the installations",
          ),
        (error: unknown) =>
          app.log.error({ err: error }, "resync at boot failed; the schedulers were left as they were"),
      );
      if (params.workers && registry) {
        const workers = startWorkers({ probot: app, queues, registry, env, log: app.log });
        closeApp = async () => {
          await workers.close();
          await closeQueues();
        };
      }
    },
    // undrift's Octokit (app-octokit.ts): no blind re-send of a create, and a 429 retried no sooner than it asks.
    { Octokit: AppOctokit },
  ).catch(async (error: unknown) => {
    await closeApp?.();
    throw error;
  });
  // Probot's run() exits the process on SIGINT at once; the caller's handler closes workers and queues first, then the server.
  for (const listener of process.listeners("SIGINT")) if (!before.has(listener)) process.off("SIGINT", listener);
  return {
    async close() {
      await server.stop();
      // Resync's GitHub calls go through Probot's throttling, which waits on Redis: in an outage they never end.
      if (redisReady()) await resync;
      await closeApp?.();
    },
  };
}
