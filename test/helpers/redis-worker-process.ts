// Runs redis-worker-child.ts as a separate worker process, so a test can send it
// SIGTERM or SIGKILL mid-scan as Kubernetes would, and read what it reports.
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { eventually, GaveUp } from "./eventually.ts";

const script = resolve(import.meta.dirname, "redis-worker-child.ts");

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the child wrote, stdout and stderr. */
  output(): string;
  /** Resolves with the first stdout line matching `pattern`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal) once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the child if it still runs. */
  stop(): Promise<void>;
}

/** Starts a worker process for `cluster`'s scan queue; resolves once it is ready to take jobs. */
export async function startWorkerProcess(settings: {
  url: string;
  prefix: string;
  cluster: string;
  scanMs: number;
  lockMs: number;
  graceMs: number;
}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      REDIS_URL: settings.url,
      PREFIX: settings.prefix,
      CLUSTER: settings.cluster,
      SCAN_MS: String(settings.scanMs),
      LOCK_MS: String(settings.lockMs),
      GRACE_MS: String(settings.graceMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const lines: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    lines.splice(0, lines.length, ...text.split("\n"));
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once("exit", (code, signal) => done({ code, signal }));
  });

  const process_: WorkerProcess = {
    child,
    output: () => text,
    async line(pattern, timeoutMs = 20_000) {
      const printed = () => {
        for (const line of lines) {
          const match = pattern.exec(line);
          if (match) return match;
        }
        if (child.exitCode !== null || child.signalCode !== null) throw new GaveUp("the worker process exited");
        return undefined;
      };
      try {
        return await eventually(`the worker process to print ${pattern}`, printed, { timeoutMs, intervalMs: 50 });
      } catch (error) {
        throw new Error(`${(error as Error).message}; it printed:\n${text}`);
      }
    },
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
  await process_.line(/^ready$/);
  return process_;
}
