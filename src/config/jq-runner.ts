// jq (jq-web, WebAssembly) bounded in time. A filter such as `until(false; .)`
// never returns, and WebAssembly running on the calling thread cannot be
// interrupted, so jq runs on one long-lived worker thread: the caller posts the
// value and blocks (Atomics.wait) until the reply or the deadline, and at the
// deadline the thread is terminated and a fresh one started on the next call.
// Callers stay synchronous, which keeps the drift engine pure.
//
// Memory: jq-web's heap is WebAssembly memory, which the worker's resourceLimits
// do not cover; it is bounded by jq-web's own 2 GiB heap maximum and by the time
// limit (a filter that allocates endlessly also runs past its deadline).
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { siblingModule } from "../model/sibling-module.ts";
import { ConfigError } from "./config-error.ts";

/** How long one evaluation may run. */
export const JQ_TIMEOUT_MS = 1000;
// The first call also waits for the thread to start and compile jq's 2.7 MB of WebAssembly.
const START_MS = 30_000;

/** A jq evaluation that did not finish within JQ_TIMEOUT_MS; a config problem, never worth a retry. */
export class JqTimeoutError extends ConfigError {
  override name = "JqTimeoutError";
}

/** jq failed: `compile` when the filter is not valid jq, else an error on this input. */
export class JqError extends Error {
  override name = "JqError";
  readonly compile: boolean;
  constructor(message: string, options: { compile: boolean }) {
    super(message);
    this.compile = options.compile;
  }
}

interface Thread {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  started: boolean;
}

let thread: Thread | undefined;

function startThread(): Thread {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(siblingModule("./jq-thread.ts", import.meta.url), {
    workerData: { port: port2, signal },
    transferList: [port2],
  });
  // The thread must never keep a finished CLI run alive.
  worker.unref();
  port1.unref();
  return { worker, port: port1, signal, started: false };
}

/** jq's output for `filter` on `value` (its single result); throws JqError or JqTimeoutError. */
export function runJq(value: unknown, filter: string, timeoutMs = JQ_TIMEOUT_MS): unknown {
  thread ??= startThread();
  const current = thread;
  Atomics.store(current.signal, 0, 0);
  current.port.postMessage({ value, filter });
  const waited = Atomics.wait(current.signal, 0, 0, current.started ? timeoutMs : START_MS + timeoutMs);
  const reply = receiveMessageOnPort(current.port)?.message as
    | { ok: true; output: unknown }
    | { ok: false; message: string; exitCode: unknown }
    | undefined;
  if (!reply) {
    thread = undefined;
    void current.worker.terminate();
    const why = waited === "timed-out" ? `did not finish within ${timeoutMs / 1000}s` : "stopped without an answer";
    throw new JqTimeoutError(`jq: ${why}`, { file: ".github/undrift.yml" });
  }
  current.started = true;
  if (reply.ok) return reply.output;
  throw new JqError(`jq: ${jqMessage(reply.message)}`, { compile: reply.exitCode === 3 });
}

/** jq's whole message on one line, without jq-web's exit-code line or the echo of the filter. */
function jqMessage(message: string): string {
  const lines = message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^Non-zero exit code/.test(l));
  const kept = lines.filter((l) => l.startsWith("jq:")).map((l) => l.replace(/^jq: (error: )?/, ""));
  return (kept.length > 0 ? kept : lines)
    .join("; ")
    .replace(" (Unix shell quoting issues?)", "")
    .replace(/, line 1:$/, ", line 1")
    .replace(/:; /g, "; ");
}

/** jq's message when `expression` is not a valid path expression, else undefined; a loop on null is refused too. */
export function jqPathProblem(expression: string): string | undefined {
  try {
    runJq(null, `[path(${expression})]`);
    return undefined;
  } catch (error) {
    if (error instanceof JqTimeoutError) return `${error.message} on an empty input; an endless loop?`;
    if (error instanceof JqError && error.compile) return error.message;
    // An error on null (a missing field, an index into nothing) is a question of the object, not of the filter.
    return undefined;
  }
}
