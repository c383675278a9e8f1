// The test cluster's processes: each one detached, logging into the state folder,
// so that a later cluster:up, the test suite or cluster:down can find and stop it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The kernel's range of ephemeral ports (the source ports of outbound connections). */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: IANA's dynamic range, which macOS and Windows use
  }
  return [49152, 65535];
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port that nothing listens on right now, chosen below the ephemeral range: a port
 * the kernel hands out (listen on 0) is an ephemeral one, and between choosing it and the
 * component binding it, any outbound connection (kube-controller-manager opens dozens to the
 * API server) can take it as its source port: the webhook once failed with EADDRINUSE so.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow) - 1;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await listens(port)) return port;
  }
  throw new Error(`cluster: no free loopback port between ${low} and ${high}`);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A component that runs detached; `log` is where its stdout and stderr go. */
export interface Component {
  name: string;
  child: ChildProcess;
  log: string;
}

/**
 * Starts `binary` as `name`: argv[0] is what client-go derives a component's user
 * agent and default field manager from, so kube-controller-manager's writes are
 * attributed to `kube-controller-manager` as in production, not to the cached
 * file's versioned name.
 */
export function start(name: string, binary: string, args: string[], log: string): Component {
  const out = openSync(log, "a");
  const child = spawn(binary, args, { argv0: name, detached: true, stdio: ["ignore", out, out] });
  child.unref();
  return { name, child, log };
}

export function exited(component: Component): boolean {
  return component.child.exitCode !== null || component.child.signalCode !== null;
}

/** The log's first error line (a usage text or a stack follows it), else its last lines, as one line for an error message. */
export function logTail(log: string, lines = 3): string {
  if (!existsSync(log)) return "(no log)";
  const all = readFileSync(log, "utf8").trim().split("\n");
  const error = all.find((line) => /^(Error:|panic:|F\d{4} )|"level":"ERROR"/.test(line));
  const text = error ?? all.slice(-lines).join(" | ");
  return text.length > 600 ? `...${text.slice(-600)}` : text || "(empty log)";
}

/** SIGTERM, then SIGKILL after five seconds. */
export async function stop(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
}
