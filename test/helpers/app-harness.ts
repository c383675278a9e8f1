// The undrift app end to end, in one test process: a Probot instance with a
// test GitHub App key (RSA, made here), the app's webhook middleware on a
// loopback port (webhooks are signed with the secret and POSTed as GitHub
// does), real Redis under a random prefix, a cluster registry file, and the
// app's scan workers on demand. GitHub itself is the OpenAPI-checked nock mock.
//
//   const h = await openAppHarness({ clusters: { test: { kubeconfig, repositories: ["acme/gitops"] } } });
//   await h.deliver("installation", payload);
//   h.startWorkers(["test"]); await h.settled("test", 1);
//   await h.close();
import { execFile } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Job } from "bullmq";
import { type Logger, pino } from "pino";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { stringify } from "yaml";
import { undriftApp } from "../../src/app/app.ts";
import { type ClusterRegistry, loadClusterRegistry } from "../../src/config/cluster-registry.ts";
import type { ScanJobSettings } from "../../src/queue/create-queues.ts";
import { startNotifyWorker } from "../../src/queue/notify-worker.ts";
import { type ScanWorkers, startScanWorkers, type WorkerTiming } from "../../src/queue/scan-worker.ts";
import { sendNotification } from "../../src/worker/notify/send-notification.ts";
import { scanHandlers } from "../../src/worker/scan-handlers.ts";
import { watchClusters } from "../../src/worker/watch-clusters.ts";
import type { RepoCommit } from "./app-github.ts";
import { appPrivateKey } from "./app-process-setup.ts";
import { openTestRedis, type TestRedis, waitFor } from "./redis.ts";

const run = promisify(execFile);
export const WEBHOOK_SECRET = "undrift-test-secret";
// One key per test process: generating RSA keys is the slow part, and the key only has to sign.
let privateKey: string | undefined;

export interface AppHarness {
  redis: TestRedis;
  probot: Probot;
  registry: ClusterRegistry;
  snapshotDir: string;
  /**
   * Signs and POSTs a webhook to the app's middleware; resolves with GitHub's view of the delivery.
   * `id` is the delivery id (a redelivery repeats it; default a new one); `signature` replaces the
   * right one (null sends none), as a forger would.
   */
  deliver(
    name: string,
    payload: object,
    options?: { id?: string; signature?: string | null },
  ): Promise<{ status: number; body: string }>;
  /**
   * The app's scan workers in this process; `timing` shortens locks and stalled checks for recovery tests,
   * `now` is the workers' clock (snoozes). With `watch`, the workers watch their clusters as `undrift worker`
   * does (src/worker/watch-clusters.ts): scans answered from the watches, a watched change queuing its target's scan.
   */
  startWorkers(
    clusters: string[],
    options?: { timing?: WorkerTiming; now?: () => number; watch?: boolean },
  ): ScanWorkers;
  /** Waits until `count` scan jobs of `cluster` have completed or failed, and returns them. */
  settled(cluster: string, count: number): Promise<Job[]>;
  close(): Promise<void>;
}

export async function openAppHarness(params: {
  clusters: Record<string, { kubeconfig: string; repositories: string[] }>;
  /** Another Redis than REDIS_URL's, such as a private redis-server a test restarts. */
  redisUrl?: string;
  /** The Octokit class the app acts with; default the production one with its retries and throttling off. */
  octokit?: typeof ProbotOctokit;
  /** How scan jobs retry (test default: 3 attempts, 20ms backoff). */
  scanJobs?: Partial<ScanJobSettings>;
  /** Where the app's and Probot's log lines go (default: silent, or LOG_LEVEL to stdout). */
  log?: Logger;
  /** The registry's notification channels; with them, startWorkers starts the notify worker too. */
  channels?: Record<string, unknown>;
}): Promise<AppHarness> {
  privateKey ??= appPrivateKey();
  const redis = await openTestRedis({
    ...(params.redisUrl ? { url: params.redisUrl } : {}),
    ...(params.scanJobs ? { scanJobs: params.scanJobs } : {}),
  });
  const scratch = await mkdtemp(join(tmpdir(), "undrift-app-"));
  const registryFile = join(scratch, "clusters.yaml");
  await writeFile(
    registryFile,
    stringify({ clusters: params.clusters, ...(params.channels ? { channels: params.channels } : {}) }),
  );
  const registry = await loadClusterRegistry(registryFile);
  const snapshotDir = join(scratch, "snapshots");
  const log = params.log ?? pino({ level: process.env.LOG_LEVEL ?? "silent" });
  const probot = new Probot({
    appId: 4242,
    privateKey,
    secret: WEBHOOK_SECRET,
    log,
    // Retries and throttling off: each request the app makes is one request on the mock's log.
    Octokit: params.octokit ?? ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
  });
  const middleware = await createNodeMiddleware(undriftApp({ queues: redis.queues, registry }), { probot });
  const server: Server = createServer((req, res) => {
    middleware(req, res, () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/api/github/webhooks`;
  const workers: Array<Pick<ScanWorkers, "close">> = [];
  const closers: Array<() => Promise<void>> = [];
  const clusters = Object.keys(params.clusters);

  return {
    redis,
    probot,
    registry,
    snapshotDir,
    async deliver(name, payload, options = {}) {
      const body = JSON.stringify(payload);
      const signature =
        options.signature === undefined
          ? `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`
          : options.signature;
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": name,
          "x-github-delivery": options.id ?? randomUUID(),
          ...(signature === null ? {} : { "x-hub-signature-256": signature }),
        },
        body,
      });
      return { status: response.status, body: await response.text() };
    },
    startWorkers(names, options = {}) {
      const watching = options.watch
        ? watchClusters({ queues: redis.queues, connection: redis.redis, clusters: names, log: redis.log })
        : undefined;
      if (watching) closers.push(() => watching.close());
      const watched = watching ? { sessions: watching.sessions, triggers: watching.triggers } : {};
      const started = startScanWorkers({
        queues: redis.queues,
        clusters: names,
        schedule: false,
        connection: redis.workerConnection,
        ...(options.timing ? { timing: options.timing } : {}),
        ...(watching ? { fromWatches: watching.watching } : {}),
        log: redis.log,
        handlers: scanHandlers({
          probot,
          queues: redis.queues,
          registry,
          snapshotDir,
          log: redis.log,
          ...(options.now ? { now: options.now } : {}),
          ...watched,
        }),
      });
      workers.push(started);
      if (registry.channels) {
        workers.push(
          startNotifyWorker({
            queues: redis.queues,
            connection: redis.workerConnection,
            log: redis.log,
            send: (job, context) => sendNotification({ queues: redis.queues, registry, job, context }),
          }),
        );
      }
      return started;
    },
    async settled(cluster, count) {
      const queue = redis.queues.scan(cluster);
      await waitFor(
        `${count} scan job(s) of ${cluster} to finish`,
        async () => {
          const counts = await queue.getJobCounts("completed", "failed");
          return (counts.completed ?? 0) + (counts.failed ?? 0) >= count;
        },
        45_000,
      );
      return [...(await queue.getCompleted()), ...(await queue.getFailed())].sort(
        (a, b) => (a.finishedOn ?? 0) - (b.finishedOn ?? 0),
      );
    },
    async close() {
      for (const started of workers) await started.close({ graceMs: 1000 });
      for (const close of closers) await close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (registry.channels) await redis.queues.notify().obliterate({ force: true });
      await redis.cleanup(clusters);
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Commits the repository and returns the commit, its tree and GitHub's tarball of it. */
export async function commitRepo(repoDir: string, names = { owner: "acme", repo: "gitops" }): Promise<RepoCommit> {
  const git = (...args: string[]) => run("git", ["-C", repoDir, ...args]);
  await git("init", "-q", "-b", "main").catch(() => undefined);
  await git("add", "-A");
  await git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "gitops", "--allow-empty");
  const sha = (await git("rev-parse", "HEAD")).stdout.trim();
  const treeSha = (await git("rev-parse", "HEAD^{tree}")).stdout.trim();
  const out = join(tmpdir(), `undrift-archive-${sha}.tar.gz`);
  await git(
    "archive",
    "--format=tar.gz",
    `--prefix=${names.owner}-${names.repo}-${sha.slice(0, 7)}/`,
    "-o",
    out,
    "HEAD",
  );
  const archive = await readFile(out);
  await rm(out);
  return { sha, treeSha, archive };
}
