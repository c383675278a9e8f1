// A private redis-server on a free loopback port, for the tests that restart
// Redis under a running job. It never snapshots on its own (`--save ""`,
// `--appendonly no`); restart() is a graceful restart that keeps the data:
// SHUTDOWN SAVE writes one snapshot, and the new server loads it from the same
// folder, as a Redis with persistence comes back after a rolling restart.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

export interface RedisServer {
  port: number;
  url: string;
  /** Saves, stops, waits `downMs`, and starts again on the same port with the saved data. */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis-server (from PATH) on a free port with a fresh data folder. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "undrift-redis-"));
  let child = await launch(port, dir);
  const url = `redis://127.0.0.1:${port}`;

  return {
    port,
    url,
    async restart({ downMs = 500 } = {}) {
      await shutdown(url, child);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await launch(port, dir);
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGKILL");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return child;
}

async function shutdown(url: string, child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  await client.connect();
  // The server closes the connection as it stops, so SHUTDOWN's only answer is that; any other is a failure.
  await client.call("SHUTDOWN", "SAVE").catch((error: Error) => {
    if (!error.message.includes("Connection is closed")) throw error;
  });
  client.disconnect();
  await exited;
}

/** A loopback port nothing listens on now, for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
