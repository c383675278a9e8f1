// undrift worker [--clusters a,b]: scan workers alone, for the clusters named
// (default: every cluster of the registry), so a worker can run inside the one
// cluster it serves and keep that cluster's credentials there. Workers act on
// GitHub as the app, so they need APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH).
// /healthz, /readyz and /metrics are served on UNDRIFT_WORKER_PORT (serve-probes.ts).
import { createProbot } from "probot";
import { loadClusterRegistry } from "../config/cluster-registry.ts";
import { printableRedisUrl } from "../config/redis-url.ts";
import { parseServerEnv, ServerEnvError } from "../config/server-env.ts";
import { AppOctokit } from "../github/app-octokit.ts";
import { githubAppCheck, redisCheck, registryCheck } from "../metrics/readiness-checks.ts";
import { type ProbeServer, serveProbes } from "../metrics/serve-probes.ts";
import { createRedisConnection } from "../queue/connection.ts";
import { createQueues } from "../queue/create-queues.ts";
import { worker } from "./command-specs.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { serveUntilSignal } from "./serve-until-signal.ts";
import { startWorkers } from "./start-workers.ts";

export async function workerCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, worker.flags);
  loadDotEnv();
  const env = parseServerEnv(process.env, { requireClusters: true });
  const registry = await loadClusterRegistry(env.clustersFile!);
  const clusters = args.clusters
    ?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (!process.env.APP_ID || !(process.env.PRIVATE_KEY || process.env.PRIVATE_KEY_PATH)) {
    throw new ServerEnvError(
      "APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH): required: workers act on GitHub as the app",
    );
  }
  // Probot's own options from the environment (GHE_HOST, LOG_LEVEL, REDIS_URL for shared throttling),
  // with undrift's Octokit: no blind re-send of a create, and a 429 retried no sooner than it asks.
  // LOG_LEVEL defaults to info, as for `undrift web` (createProbot's own default, warn, hid the start and stop lines).
  const probot = createProbot({ env: { LOG_LEVEL: "info", ...process.env }, overrides: { Octokit: AppOctokit } });
  // Its logger exists once it has initialized.
  await probot.ready();
  const producer = createRedisConnection({
    role: "producer",
    url: env.redisUrl,
    name: "undrift-worker-producer",
    log: probot.log,
  });
  const queues = createQueues({ connection: producer, log: probot.log });
  let workers: ReturnType<typeof startWorkers> | undefined;
  let probes: ProbeServer;
  try {
    workers = startWorkers({ probot, queues, registry, env, log: probot.log, ...(clusters ? { clusters } : {}) });
    probes = await serveProbes({
      port: env.workerPort,
      host: env.workerHost,
      checks: [
        redisCheck(producer, printableRedisUrl(env.redisUrl)),
        registryCheck({ file: env.clustersFile!, clusters: Object.keys(registry.clusters).length }),
        githubAppCheck(async () => (await probot.auth()).request("GET /app")),
      ],
    });
  } catch (error) {
    await workers?.close();
    await queues.close();
    await producer.quit();
    throw error;
  }
  probot.log.info(
    { port: probes.port },
    `serving /healthz, /readyz and /metrics on http://${env.workerHost}:${probes.port}`,
  );
  return serveUntilSignal(async () => {
    await probes.close();
    await workers?.close();
    await queues.close();
    await producer.quit();
  });
}

/** `.env` in the working folder, as Probot reads it for `undrift web` and `start`. */
function loadDotEnv(): void {
  try {
    process.loadEnvFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
