// jq (jq-web, WebAssembly) bounded in time and memory. A filter such as
// `until(false; .)` never returns, and WebAssembly running on the calling thread
// cannot be interrupted, so jq runs on one long-lived worker thread: the caller
// posts the value and blocks (Atomics.wait) until the reply or the deadline, and
// at the deadline the thread is terminated (which stops it even mid-WebAssembly)
// and a fresh one started on the next call. Callers stay synchronous, which
// keeps the drift engine pure.
//
// Memory: jq's heap is WebAssembly memory, which the thread's resourceLimits do
// not count; the thread caps it itself (jq-thread.ts) and says when the cap was
// the reason. jq's answer is bounded in size before it reaches JavaScript, and
// resourceLimits bound the thread's JavaScript heap.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { siblingModule } from "../model/sibling-module.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { ConfigError } from "./config-error.ts";

/** How long one evaluation may run. */
export const JQ_TIMEOUT_MS = 1000;
/** How much memory jq's WebAssembly heap may grow to (it starts at 16.5 MiB). */
export const JQ_MEMORY_MIB = 64;
/** How many characters jq's answer may have (as JSON). */
export const JQ_OUTPUT_CHARS = 4 * 1024 * 1024;
// How long the thread may take to start and compile jq's 2.7 MB of WebAssembly; not counted in an evaluation's bound.
const START_MS = 30_000;

/**
 * The time bound every runJq call without its own uses. Settable only so a test
 * can widen it and show that the memory bound, not the clock, stopped a filter.
 */
export const jqLimits = { timeoutMs: JQ_TIMEOUT_MS };

/** A jq evaluation that went past one of its bounds; a config problem, never worth a retry. */
export class JqLimitError extends ConfigError {
  override name = "JqLimitError";
}

/** A jq evaluation that did not finish within its time bound. */
export class JqTimeoutError extends JqLimitError {
  override name = "JqTimeoutError";
}

/** A jq evaluation that needed more memory than JQ_MEMORY_MIB, or answered with more than JQ_OUTPUT_CHARS. */
export class JqMemoryError extends JqLimitError {
  override name = "JqMemoryError";
}

/** jq's thread did not start: a problem of the machine, not of the config, so worth a retry. */
export class JqStartError extends UndriftError {
  override name = "JqStartError";
  readonly permanent = false;
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
  ready: boolean;
}

/** The thread's answer: the output, or jq's error, or which bound stopped it. */
type Reply =
  | { ok: true; output: unknown }
  | { ok: false; bound?: "memory" | "output"; message: string; exitCode?: unknown };

let thread: Thread | undefined;

function startThread(): Thread {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(siblingModule("./jq-thread.ts", import.meta.url), {
    workerData: { port: port2, signal, memoryBytes: JQ_MEMORY_MIB * 1024 * 1024, outputChars: JQ_OUTPUT_CHARS },
    transferList: [port2],
    // No `stdout: true`: the streams it makes hold the process open after a CLI run's last line. The thread
    // silences its own output instead (jq-thread.ts).
    // The thread's JavaScript heap holds one object, its JSON and an answer of at most JQ_OUTPUT_CHARS.
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 },
  });
  // The thread must never keep a finished CLI run alive.
  worker.unref();
  port1.unref();
  // A thread that dies (say, past resourceLimits) answers nothing; the caller's deadline reports it.
  worker.on("error", () => {});
  return { worker, port: port1, signal, ready: false };
}

function stop(current: Thread): void {
  if (thread === current) thread = undefined;
  void current.worker.terminate();
}

/** jq's output for `filter` on `value` (its single result); throws JqError, JqTimeoutError or JqMemoryError. */
export function runJq(value: unknown, filter: string, timeoutMs = jqLimits.timeoutMs): unknown {
  thread ??= startThread();
  const current = thread;
  if (!current.ready) {
    if (Atomics.wait(current.signal, 0, 0, START_MS) === "timed-out") {
      stop(current);
      throw new JqStartError(`jq: the jq thread did not start within ${START_MS / 1000}s`);
    }
    current.ready = true;
  }
  Atomics.store(current.signal, 0, 0);
  current.port.postMessage({ value, filter });
  const waited = Atomics.wait(current.signal, 0, 0, timeoutMs);
  const reply = receiveMessageOnPort(current.port)?.message as Reply | undefined;
  if (!reply) {
    stop(current);
    const why = waited === "timed-out" ? `did not finish within ${timeoutMs / 1000}s` : "stopped without an answer";
    throw new JqTimeoutError(`jq: ${why}`, { file: ".github/undrift.yml" });
  }
  if (reply.ok) return reply.output;
  if (reply.bound === "memory") {
    // jq aborted when its heap could not grow; the aborted module is not used again.
    stop(current);
    throw new JqMemoryError(`jq: needed more than ${JQ_MEMORY_MIB} MiB of memory`, { file: ".github/undrift.yml" });
  }
  if (reply.bound === "output") {
    throw new JqMemoryError(`jq: answered with more than ${JQ_OUTPUT_CHARS} characters`, {
      file: ".github/undrift.yml",
    });
  }
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

/** jq's message when `expression` is not a valid path expression, else undefined; a loop or a hoard on null is refused too. */
export function jqPathProblem(expression: string): string | undefined {
  try {
    runJq(null, `[path(${expression})]`);
    return undefined;
  } catch (error) {
    if (error instanceof JqTimeoutError) return `${error.message} on an empty input; an endless loop?`;
    if (error instanceof JqMemoryError) return `${error.message} on an empty input`;
    if (error instanceof JqError && error.compile) return error.message;
    // An error on null (a missing field, an index into nothing) is a question of the object, not of the filter.
    return undefined;
  }
}
