// The web side of a process (`undrift web`, or `undrift start` with workers):
// Probot's own `run` for the webhooks. Without APP_ID and PRIVATE_KEY it serves
// undrift's setup page instead (server/app-setup.ts), which registers the app from
// the package's app.yml with this server's webhook URL (UNDRIFT_BASE_URL).
// `.env` in the working folder is read first, as Probot's `run` does. Once
// the app is loaded, the schedulers are resynced with every installation
// (boot/resync-at-boot.ts), alongside the server so that webhooks are not kept waiting.
// The server also answers /healthz, /readyz (Redis, the cluster registry, the
// App's credentials) and /metrics, for the web side and the workers beside it,
// and the status page under /status (src/server/status/, docs/status-page.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { type ApplicationFunctionOptions, Probot, run, Server } from "probot";
import { undriftApp } from "../app/app.ts";
import { auditClientNames, readAuditTokens } from "../config/audit-tokens.ts";
import { type ClusterRegistry, loadClusterRegistry } from "../config/cluster-registry.ts";
import { parseRecorderEnv } from "../config/recorder-env.ts";
import { printableRedisUrl } from "../config/redis-url.ts";
import { parseServerEnv, ServerEnvError } from "../config/server-env.ts";
import { parseStatusEnv } from "../config/status-env.ts";
import { AppOctokit } from "../github/app-octokit.ts";
import { readApp } from "../github/read-app.ts";
import { discover } from "../live/discovery.ts";
import { KubeClient } from "../live/kube-client.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { probeRoutes, type ReadinessCheck } from "../metrics/probe-routes.ts";
import { githubAppCheck, redisCheck, registryCheck } from "../metrics/readiness-checks.ts";
import { createRedisConnection } from "../queue/connection.ts";
import { createQueues } from "../queue/create-queues.ts";
import { watchQueueDepths } from "../queue/watch-queue-depths.ts";
import { writeRecords } from "../state/write-records.ts";
import { DEFAULT_WEBHOOK_PATH, setupRoutes } from "./app-setup.ts";
import { auditKinds } from "./attribution/audit-kinds.ts";
import { auditRoutes } from "./attribution/audit-receiver.ts";
import { resyncAtBoot } from "./boot/resync-at-boot.ts";
import { probotEnv } from "./probot-env.ts";
import { probotLog } from "./probot-log.ts";
import { startRecorder } from "./recorder.ts";
import { statusRoutes } from "./status/status-routes.ts";
import { startWorkers } from "./workers.ts";

/** Serves until `close()`; `workers` runs the scan workers in the same process, on the app's own Probot. */
export async function startWeb(params: { workers?: boolean }): Promise<{ close(): Promise<void> }> {
  applyDotEnv();
  // In production Probot's run refuses to start without them, naming the one missing.
  if (!hasAppCredentials() && process.env.NODE_ENV !== "production") return startSetup();
  const log = await probotLog();
  // What the app started, closed last-started first: workers, then the recorder, then the queues and Redis.
  const closers: Array<() => Promise<void>> = [];
  const closeApp = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  let started: Started | undefined;
  const before = new Set(process.listeners("SIGINT"));
  const server = await run(
    async (app, options) => {
      started = await composeWeb({ app, options, workers: params.workers === true, closers });
    },
    // undrift's Octokit (app-octokit.ts): no blind re-send of a create, a rate limit retried no sooner than it
    // asks, throttling in this process. Probot reads its options from `env`, which has no REDIS_URL (probot-env.ts).
    { Octokit: AppOctokit, log, env: probotEnv(process.env) },
  ).catch(async (error: unknown) => {
    await closeApp();
    throw error;
  });
  // Probot's run() exits the process on SIGINT at once; the caller's handler closes workers and queues first, then the server.
  for (const listener of process.listeners("SIGINT")) if (!before.has(listener)) process.off("SIGINT", listener);
  return {
    async close() {
      await server.stop();
      // Resync writes the schedulers to Redis: in an outage it ends only when the producer gives up, so it is not waited for.
      if (started?.redisReady()) await started.resync;
      await closeApp();
    },
  };
}

type Options = ApplicationFunctionOptions;

/** What the web side started that its close waits for. */
interface Started {
  redisReady: () => boolean;
  resync: Promise<void>;
}

/** The web side inside Probot's run: its settings, the queues, the webhook handlers, the other surfaces, the workers. */
async function composeWeb(params: {
  app: Probot;
  options: Options;
  workers: boolean;
  closers: Array<() => Promise<void>>;
}): Promise<Started> {
  const { app, options, closers } = params;
  // Read first, so that a mistake in them opens no connection to linger.
  const settings = await readWebSettings(params.workers, app.log);
  const { env, registry } = settings;
  const producer = createRedisConnection({ role: "producer", url: env.redisUrl, name: "undrift-web", log: app.log });
  const queues = createQueues({ connection: producer, log: app.log });
  const unwatch = watchQueueDepths({ queues, clusters: registry ? Object.keys(registry.clusters) : [] });
  closers.push(async () => {
    unwatch();
    await queues.close();
    await producer.quit();
  });
  const deps = { queues, ...(registry ? { registry } : {}) };
  await undriftApp(deps)(app, options);
  await mountSurfaces({ app, options, settings, producer, queues, closers });
  const resync = resyncAtBoot({ deps, probot: app, log: app.log }).then(
    (changes) =>
      app.log.info(
        { created: changes.created, updated: changes.updated, removed: changes.removed },
        "schedulers resynced with the installations",
      ),
    (error: unknown) => app.log.error({ err: error }, "resync at boot failed; the schedulers were left as they were"),
  );
  if (params.workers && registry) {
    // Probot's server, on PORT and HOST as its run reads them, answers the probes of the workers beside it.
    const probes = `http://${process.env.HOST || "localhost"}:${Number(process.env.PORT) || 3000}`;
    const workers = startWorkers({ probot: app, queues, registry, env, log: app.log, probes });
    closers.push(() => workers.close());
  }
  return { redisReady: () => producer.status === "ready", resync };
}

/** The web process's settings from the environment and the cluster registry, each mistake named. */
async function readWebSettings(workers: boolean, log: Probot["log"]) {
  const env = parseServerEnv(process.env);
  const statusEnv = parseStatusEnv(process.env);
  const recorderEnv = parseRecorderEnv(process.env);
  const registry = env.clustersFile ? await loadClusterRegistry(env.clustersFile) : undefined;
  const auditTokens = registry ? await readAuditTokens(registry) : new Map<string, string>();
  const clientNames = registry ? auditClientNames(registry) : new Map<string, string>();
  if (clientNames.size > 0 && !recorderEnv?.clientCaFile)
    throw new ServerEnvError(
      `UNDRIFT_RECORDER_CLIENT_CA_FILE: required (with UNDRIFT_RECORDER_PORT) when a cluster's audit names a clientCertificate (${[...clientNames.keys()].join(", ")})`,
    );
  if (!registry && workers)
    throw new ServerEnvError("UNDRIFT_CLUSTERS: required: the path of the cluster registry (YAML) workers scan with");
  if (!registry)
    log.warn(
      "UNDRIFT_CLUSTERS is not set: targets are scheduled unchecked, and workers refuse those their registry does not allow",
    );
  return { env, statusEnv, recorderEnv, registry, auditTokens, clientNames };
}

/** The surfaces beside the webhooks: probes and metrics, the status page, the audit receiver and the admission recorder. */
async function mountSurfaces(params: {
  app: Probot;
  options: Options;
  settings: Awaited<ReturnType<typeof readWebSettings>>;
  producer: ReturnType<typeof createRedisConnection>;
  queues: ReturnType<typeof createQueues>;
  closers: Array<() => Promise<void>>;
}): Promise<void> {
  const { app, options, producer, queues } = params;
  const { env, statusEnv, recorderEnv, registry, auditTokens, clientNames } = params.settings;
  const checks: ReadinessCheck[] = [
    redisCheck(producer, printableRedisUrl(env.redisUrl)),
    ...(registry && env.clustersFile
      ? [registryCheck({ file: env.clustersFile, clusters: Object.keys(registry.clusters).length })]
      : []),
    githubAppCheck(() => readApp(app)),
  ];
  options.addHandler(probeRoutes({ checks }));
  options.addHandler(statusRoutes({ env: statusEnv, redis: producer, prefix: queues.prefix, log: app.log }));
  const audit =
    registry && auditTokens.size + clientNames.size > 0
      ? auditRoutes({
          tokens: auditTokens,
          clientNames,
          records: writeRecords({ redis: producer, prefix: queues.prefix }),
          kinds: clusterKinds(registry, app.log),
          log: app.log,
        })
      : undefined;
  if (audit) {
    // The audit webhook backend: self-managed clusters' apiservers post who wrote what (issue 16), here behind
    // a TLS-terminating proxy, or on the recorder's HTTPS port below.
    options.addHandler(audit);
    const clusters = [...new Set([...auditTokens.keys(), ...clientNames.keys()])];
    app.log.info(`audit receiver on /attribution/audit/<cluster> for ${clusters.join(", ")}`);
  }
  if (recorderEnv) {
    // The admission recorder: who wrote what, kept under the queue prefix where scans read it (issue 16).
    const recorder = await startRecorder({
      ...recorderEnv,
      records: writeRecords({ redis: producer, prefix: queues.prefix }),
      log: app.log,
      ...(audit ? { audit } : {}),
    });
    app.log.info(`admission recorder on https://${recorderEnv.host}:${recorder.port}/attribution/admission/<cluster>`);
    params.closers.push(() => recorder.close());
  }
}

/** The kinds of audit events' resources: Kubernetes' own, then the cluster's discovery through its registry entry. */
function clusterKinds(registry: ClusterRegistry, log: { warn(details: object, message: string): void }) {
  return auditKinds({
    discover: async (cluster) => {
      const entry = registry.clusters[cluster]!;
      const kubeConfig = loadKubeconfig({
        ...(entry.kubeconfig ? { kubeconfig: entry.kubeconfig } : {}),
        ...(entry.context ? { context: entry.context } : {}),
        ...(entry.inCluster ? { inCluster: true } : {}),
      });
      return (await discover(new KubeClient(kubeConfig, { timeoutMs: 5000 }))).resources;
    },
    onError: (cluster, error) =>
      log.warn(
        { err: error, cluster },
        `audit receiver: cluster ${cluster}'s discovery failed, so writes to its custom resources are not recorded for now`,
      ),
  });
}

/** Serves the setup page (server/app-setup.ts) on PORT and HOST, with Probot's server and its static files. */
async function startSetup(): Promise<{ close(): Promise<void> }> {
  const env = parseServerEnv(process.env);
  const log = await probotLog();
  const webhookPath = process.env.WEBHOOK_PATH || DEFAULT_WEBHOOK_PATH;
  const server = new Server({
    host: process.env.HOST || "localhost",
    port: Number(process.env.PORT) || 3000,
    webhookPath,
    log,
    // Probot's own setup does the same (probot#1512): its instance serves nothing here, so any values do.
    Probot: Probot.defaults({ appId: 1, privateKey: "unused in setup mode", log }),
  });
  await server.loadHandlerFactory(async () =>
    setupRoutes({
      ...(env.baseUrl ? { baseUrl: env.baseUrl } : {}),
      webhookPath,
      ...(process.env.WEBHOOK_PROXY_URL ? { webhookProxyUrl: process.env.WEBHOOK_PROXY_URL } : {}),
      ...(process.env.GHE_HOST ? { gheHost: process.env.GHE_HOST } : {}),
      ...(process.env.GHE_PROTOCOL ? { gheProtocol: process.env.GHE_PROTOCOL } : {}),
      ...(process.env.GH_ORG ? { org: process.env.GH_ORG } : {}),
      cwd: process.cwd(),
      log: log.child({ name: "setup" }),
    }),
  );
  await server.start();
  const page = `http://${server.host}:${server.port}/probot`;
  const hook =
    process.env.WEBHOOK_PROXY_URL ??
    (env.baseUrl ? `${env.baseUrl}${webhookPath}` : `the address the page is opened at + ${webhookPath}`);
  log.info(
    { page, webhookUrl: hook },
    `setup mode (APP_ID and PRIVATE_KEY are not set): register the GitHub App at ${page}; its webhooks will go to ${hook}`,
  );
  return { close: () => server.stop() };
}

/** `.env` in the working folder into the environment, over what is set, as Probot's `run` applies it. */
function applyDotEnv(): void {
  try {
    Object.assign(process.env, parseEnv(readFileSync(join(process.cwd(), ".env"), "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Whether Probot will find the App's credentials: APP_ID and a key (PRIVATE_KEY, PRIVATE_KEY_PATH, or a .pem here). */
function hasAppCredentials(): boolean {
  const env = process.env;
  if (!env.APP_ID) return false;
  if (env.PRIVATE_KEY || env.PRIVATE_KEY_PATH) return true;
  return readdirSync(process.cwd()).some((name) => name.endsWith(".pem"));
}
