// Starts app-worker-child.ts as a separate process, so a test can SIGKILL an
// app worker in the middle of a scan as a lost node or the OOM killer would.
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { appPrivateKey } from "./app-process-setup.ts";
import { eventually, GaveUp } from "./eventually.ts";

const script = resolve(import.meta.dirname, "app-worker-child.ts");

export interface AppWorkerProcess {
  child: ChildProcess;
  /** Everything the child wrote, stdout and stderr. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the child if it still runs. */
  stop(): Promise<void>;
}

/** Resolves once the child's worker takes jobs of `cluster` from the queues under `prefix`. */
export async function startAppWorkerProcess(settings: {
  redisUrl: string;
  prefix: string;
  cluster: string;
  registryFile: string;
  snapshotDir: string;
  lockMs: number;
  /** Where the child's Probot sends GitHub requests: GHE_HOST (host:port) and GHE_PROTOCOL. */
  gitHubHost: string;
  gitHubProtocol: "http" | "https";
  /** Watch the cluster as `undrift worker` does, under a lease of this many ms; ready once it holds the lease. */
  watchLeaseMs?: number;
  /**
   * A cgroup's `cgroup.procs` (test/helpers/memory-cgroup.ts): the child enters it before Node starts, so V8 sizes
   * its heap from the cgroup's memory limit, as in a pod.
   */
  cgroupProcs?: string;
}): Promise<AppWorkerProcess> {
  const privateKey = appPrivateKey();
  // The V8 flag undrift runs with (bin/undrift.js's shebang, the chart's command), so its memory is production's.
  const command = [process.execPath, "--max-semi-space-size=4", script];
  // The shell enters the cgroup, then becomes Node (exec): the child's pid is Node's.
  const [file, ...args] = settings.cgroupProcs
    ? ["/bin/sh", "-c", 'echo $$ > "$UNDRIFT_CGROUP_PROCS" && exec "$@"', "sh", ...command]
    : command;
  const child = spawn(file!, args, {
    env: {
      ...process.env,
      ...(settings.cgroupProcs ? { UNDRIFT_CGROUP_PROCS: settings.cgroupProcs } : {}),
      APP_ID: "4242",
      PRIVATE_KEY: privateKey,
      GHE_HOST: settings.gitHubHost,
      GHE_PROTOCOL: settings.gitHubProtocol,
      LOG_LEVEL: "error",
      REDIS_URL: settings.redisUrl,
      PREFIX: settings.prefix,
      CLUSTER: settings.cluster,
      UNDRIFT_CLUSTERS: settings.registryFile,
      UNDRIFT_SNAPSHOT_DIR: settings.snapshotDir,
      LOCK_MS: String(settings.lockMs),
      ...(settings.watchLeaseMs !== undefined ? { WATCH_LEASE_MS: String(settings.watchLeaseMs) } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once("exit", (code, signal) => done({ code, signal }));
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const ready = () => {
    if (/^ready$/m.test(text)) return true;
    if (!running()) throw new GaveUp("it exited");
    return false;
  };
  try {
    await eventually("the app worker process to be ready", ready, { timeoutMs: 20_000, intervalMs: 50 });
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}; it printed:\n${text}`);
  }
  return {
    child,
    output: () => text,
    exited,
    async stop() {
      if (running()) child.kill("SIGKILL");
      await exited;
    },
  };
}
