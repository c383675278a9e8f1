// Exec credential plugins (`users[].user.exec` in a kubeconfig: aws eks get-token,
// gke-gcloud-auth-plugin, kubelogin), run with a bound. client-node's ExecAuth spawns
// the plugin and waits for it with no limit, so a plugin that hangs (a login waiting
// on a prompt no one sees, a network call that never returns) hung the CLI with
// nothing printed and a worker's job for good, and Ctrl-C or SIGTERM left it running.
// client-go waits on the request's context (kubectl's --request-timeout, unbounded by
// default); undrift is unattended as often as not, so each run gets UNDRIFT_EXEC_TIMEOUT
// seconds (60 by default), as long as one request may take. The plugin runs in a process
// group of its own, so a shell script's children go with it: the group is killed when
// the bound passes, when the process exits, and on SIGINT, SIGTERM or SIGHUP.
//
//   boundExecPlugins(kubeConfig);  // once per KubeConfig, before its first request (KubeClient does it)
//
// Everything else is client-node's: the credential is cached per user until its
// expirationTimestamp, and applied as a bearer token or a client certificate and key.
import type { ChildProcess } from "node:child_process";
import type { KubeConfig, User } from "@kubernetes/client-node";
import { ExecPluginStoppedError, KubeconfigError } from "./errors.ts";

/** The bound when UNDRIFT_EXEC_TIMEOUT is unset: as long as one request to the API server may take. */
export const defaultExecTimeoutMs = 60_000;

/** UNDRIFT_EXEC_TIMEOUT (seconds, fractions allowed) in milliseconds; 60 s when unset. */
export function execTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.UNDRIFT_EXEC_TIMEOUT?.trim();
  if (!text) return defaultExecTimeoutMs;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new KubeconfigError(`UNDRIFT_EXEC_TIMEOUT: expected a number of seconds above 0, got "${text}"`);
  }
  return seconds * 1000;
}

interface ExecConfig {
  command?: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
}

/** What a plugin prints: client.authentication.k8s.io ExecCredential. */
interface ExecCredential {
  status?: {
    token?: string;
    clientCertificateData?: string;
    clientKeyData?: string;
    expirationTimestamp?: string;
  };
}

/** client-node's authenticator interface (not exported by it). */
interface Authenticator {
  isAuthProvider(user: User): boolean;
  applyAuthentication(
    user: User,
    opts: { headers?: Record<string, unknown>; cert?: unknown; key?: unknown },
  ): Promise<void>;
}

/** The exec section of a user, in either spelling client-node reads. */
function execOf(user: User | undefined): ExecConfig | undefined {
  const provider = user?.authProvider as { name?: string; config?: { exec?: ExecConfig } } | undefined;
  return (user?.exec as ExecConfig | undefined) ?? provider?.config?.exec;
}

/** Replaces client-node's ExecAuth by client-node's own rules, with BoundedExecAuth; calling it again is harmless. */
export function boundExecPlugins(kubeConfig: KubeConfig): void {
  // A private field of client-node 2.x: an upgrade that renames it fails here (and in its unit test), loudly.
  const authenticators = (kubeConfig as unknown as { authenticators?: Authenticator[] }).authenticators;
  if (!Array.isArray(authenticators)) throw new Error("client-node's KubeConfig has no authenticators list");
  if (authenticators.some((a) => a instanceof BoundedExecAuth)) return;
  const index = authenticators.findIndex((a) => a.constructor.name === "ExecAuth");
  if (index < 0) throw new Error("client-node's KubeConfig has no ExecAuth to bound");
  authenticators[index] = new BoundedExecAuth();
}

/** client-node's ExecAuth with a bound on each run and the plugin's process group killed when undrift stops. */
export class BoundedExecAuth implements Authenticator {
  private readonly cached = new Map<string, ExecCredential>();
  private readonly running = new Map<string, Promise<ExecCredential>>();

  isAuthProvider(user: User): boolean {
    const provider = user?.authProvider as { name?: string } | undefined;
    return Boolean(execOf(user)) || provider?.name === "exec";
  }

  async applyAuthentication(
    user: User,
    opts: { headers?: Record<string, unknown>; cert?: unknown; key?: unknown },
  ): Promise<void> {
    const status = (await this.credential(user))?.status;
    if (!status) return;
    if (status.clientCertificateData) opts.cert = status.clientCertificateData;
    if (status.clientKeyData) opts.key = status.clientKeyData;
    if (status.token) {
      opts.headers ??= {};
      opts.headers.Authorization = `Bearer ${status.token}`;
    }
  }

  /** The user's credential: cached until it expires; requests that need it at once share one run of the plugin. */
  private async credential(user: User): Promise<ExecCredential | undefined> {
    const exec = execOf(user);
    if (!exec) return undefined;
    const kept = this.cached.get(user.name);
    const expires = kept?.status?.expirationTimestamp;
    if (kept && (!expires || Date.parse(expires) > Date.now())) return kept;
    this.cached.delete(user.name);
    let run = this.running.get(user.name);
    if (!run) {
      run = runPlugin(user.name, exec, execTimeoutMs()).finally(() => this.running.delete(user.name));
      this.running.set(user.name, run);
    }
    const credential = await run;
    this.cached.set(user.name, credential);
    return credential;
  }
}

/** One run of the plugin, bounded by `timeoutMs`; a failure names the user and the command (never its arguments). */
function runPlugin(userName: string, exec: ExecConfig, timeoutMs: number): Promise<ExecCredential> {
  const who = `user "${userName}": exec plugin ${exec.command ?? "(no command)"}`;
  if (!exec.command) return Promise.reject(new Error(`user "${userName}": exec: no command`));
  // Loaded on first use: most runs have no plugin, and start-up loads only what it needs.
  const { spawn } = process.getBuiltinModule("node:child_process");
  const env = exec.env ? { ...process.env, ...Object.fromEntries(exec.env.map((e) => [e.name, e.value])) } : undefined;
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    // The stop signals are taken before the plugin exists. Taken after, a SIGINT that came between the plugin's
    // start and that line ended undrift by the default action and left the plugin's group running (once, in a
    // test on a loaded machine: the plugin had started, written its pids and been seen before undrift ran on).
    holdStopSignals();
    try {
      // stdin closed, as client-go's non-interactive run: a plugin that would prompt fails at once instead of waiting.
      child = spawn(exec.command!, exec.args ?? [], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      releaseStopSignals();
      return reject(new Error(`${who}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    }
    let stdout = "";
    let stderr = "";
    let failed: Error | undefined;
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    track(child);
    const timer = setTimeout(() => {
      failed = new Error(
        `${who} gave no credentials within ${timeoutMs / 1000} s and was stopped (UNDRIFT_EXEC_TIMEOUT sets the bound)`,
      );
      killGroup(child);
    }, timeoutMs);
    child.on("error", (error) => {
      failed ??= new Error(`${who}: ${error.message}`, { cause: error });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      untrack(child);
      if (failed) return reject(failed);
      if (stoppedBy)
        return reject(new ExecPluginStoppedError(`${who} was stopped: undrift is stopping (${stoppedBy})`));
      if (signal) return reject(new Error(`${who} was ended by ${signal}`));
      if (code !== 0) {
        const said = stderr.trim().split("\n")[0];
        return reject(new Error(`${who} exited with ${code}${said ? `: ${said}` : ""}`));
      }
      try {
        resolve(JSON.parse(stdout) as ExecCredential);
      } catch {
        // Not quoted: what a plugin prints is a credential.
        reject(new Error(`${who} printed no ExecCredential JSON`));
      }
    });
  });
}

// The stop signal undrift received, once it did: a plugin it kills then was stopped, not broken.
let stoppedBy: NodeJS.Signals | undefined;

// Plugins running now, so that a stopping undrift stops them too.
const running = new Set<ChildProcess>();
const stopSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
let exitHooked = false;

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
}

function killAll(): void {
  for (const child of running) killGroup(child);
}

/**
 * A stop signal kills the plugins. When no one else listens for it, the signal then does what it would have
 * done without this listener (the process ends by it); otherwise the other listener (a worker closing its
 * queues, a revert stopping) decides, and the credential it waited for fails at once.
 */
function onStopSignal(signal: NodeJS.Signals): void {
  stoppedBy = signal;
  killAll();
  if (process.listenerCount(signal) > 1) return;
  for (const s of stopSignals) process.off(s, onStopSignal);
  holders = 0;
  process.kill(process.pid, signal);
}

// Plugins running or being started: the stop signals are listened for while there is one.
let holders = 0;

/** Listens for the stop signals (and exit) until the matching release: before a plugin is spawned. */
function holdStopSignals(): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", killAll);
  }
  // Only while a plugin runs: a listener of its own would keep SIGINT from ending the process.
  if (holders++ === 0) for (const s of stopSignals) process.on(s, onStopSignal);
}

function releaseStopSignals(): void {
  if (--holders === 0) for (const s of stopSignals) process.off(s, onStopSignal);
}

function track(child: ChildProcess): void {
  running.add(child);
}

function untrack(child: ChildProcess): void {
  running.delete(child);
  releaseStopSignals();
}
