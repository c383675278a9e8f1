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
import { readApp } from "../github/read-app.ts";
import { githubAppCheck, redisCheck, registryCheck } from "../metrics/readiness-checks.ts";
import { type ProbeServer, serveProbes } from "../metrics/serve-probes.ts";
import { createRedisConnection } from "../queue/connection.ts";
import { createQueues } from "../queue/create-queues.ts";
import { probotEnv } from "../server/probot-env.ts";
import { probotLog } from "../server/probot-log.ts";
import { startWorkers } from "../server/workers.ts";
import { worker } from "./command-specs.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { serveUntilSignal } from "./serve-until-signal.ts";

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
  // Probot's own options from the environment (GHE_HOST, LOG_LEVEL) but not REDIS_URL (probot-env.ts), with
  // undrift's Octokit: no blind re-send of a create, a rate limit retried no sooner than it asks, throttling in
  // this process. The logger is the server's (probot-log.ts): LOG_LEVEL info by default, as for `undrift web`
  // (createProbot's own default, warn, hid the start and stop lines).
  const log = await probotLog();
  const probot = createProbot({ env: probotEnv(process.env), overrides: { Octokit: AppOctokit, log } });
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
  let probes: ProbeServer | undefined;
  try {
    // The probes first, so that the start line names the port they answer on.
    probes = await serveProbes({
      port: env.workerPort,
      host: env.workerHost,
      checks: [
        redisCheck(producer, printableRedisUrl(env.redisUrl)),
        registryCheck({ file: env.clustersFile!, clusters: Object.keys(registry.clusters).length }),
        githubAppCheck(() => readApp(probot)),
      ],
    });
    workers = startWorkers({
      probot,
      queues,
      registry,
      env,
      log: probot.log,
      probes: `http://${env.workerHost}:${probes.port}`,
      ...(clusters ? { clusters } : {}),
    });
  } catch (error) {
    await probes?.close();
    await workers?.close();
    await queues.close();
    await producer.quit();
    throw error;
  }
  const served = probes;
  return serveUntilSignal(async () => {
    await served.close();
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
