// The jq worker thread: jq-web loaded once, evaluating filters on request.
// Replies go through the port; the shared flag wakes the waiting caller.
import { createRequire } from "node:module";
import { type MessagePort, workerData } from "node:worker_threads";

interface JqWeb {
  raw(input: string, filter: string, flags: string[]): string | undefined;
}

const { port, signal, memoryBytes, outputChars } = workerData as {
  port: MessagePort;
  signal: Int32Array;
  memoryBytes: number;
  outputChars: number;
};

// jq-web's heap is WebAssembly memory, which the thread's resourceLimits do not
// count, and its module object is private, so the cap goes on every memory of
// this thread (jq's is the only one). Emscripten grows the heap through this
// call and treats a throw as "no more memory": malloc fails and jq aborts.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
// The project's TypeScript libraries do not declare WebAssembly; Node has it.
const memory = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory;
let refused = false;
const grow = memory.prototype.grow;
memory.prototype.grow = function (this: WasmMemory, pages: number): number {
  refused = this.buffer.byteLength + pages * 65_536 > memoryBytes;
  if (refused) throw new RangeError(`jq: memory bound of ${memoryBytes} bytes`);
  return grow.call(this, pages);
};

// Emscripten prints `Aborted()` and jq's `debug`/`stderr` output through the
// console, which in a worker thread reaches the user's stderr. Both are bound
// when jq-web loads, so they are silenced before it does; jq's own error
// messages come back on the error jq-web throws.
console.error = () => {};
console.warn = () => {};
// Whatever else the thread might write (WebAssembly's `Aborted()` through another path) is dropped here too.
process.stdout.write = () => true;
process.stderr.write = () => true;

// jq-web is CommonJS whose module.exports is a promise; require() hands it over as it is.
const jq = await (createRequire(import.meta.url)("jq-web") as PromiseLike<JqWeb>);

// jq itself checks the size of its answer, so no more than `outputChars` of it reach this thread's heap. The
// mark of a refused answer starts with "!", which no JSON text does (and jq-web drops NUL bytes from output).
const bounded = (filter: string) => `(${filter}\n) | tojson | if length > ${outputChars} then "!too long" else . end`;

type Reply =
  | { ok: true; output: unknown }
  | { ok: false; bound?: "memory" | "output"; message: string; exitCode?: unknown };

function evaluate(value: unknown, filter: string): Reply {
  refused = false;
  try {
    const lines = (jq.raw(JSON.stringify(value), bounded(filter), ["-r"]) ?? "").split("\n").filter((l) => l !== "");
    if (lines.some((l) => l.startsWith("!"))) return { ok: false, bound: "output", message: "" };
    const outputs = lines.map((l) => JSON.parse(l) as unknown);
    // As jq-web's json(): one answer as it is, several joined into one list.
    return { ok: true, output: outputs.length === 1 ? outputs[0] : outputs.flat() };
  } catch (error) {
    const message = String((error as Error).message);
    if (refused) return { ok: false, bound: "memory", message };
    return { ok: false, message, exitCode: (error as { exitCode?: unknown }).exitCode };
  }
}

port.on("message", ({ value, filter }: { value: unknown; filter: string }) => {
  port.postMessage(evaluate(value, filter));
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

// Ready: the caller's time bound starts with its first evaluation, not with compiling jq.
Atomics.store(signal, 0, 1);
Atomics.notify(signal, 0);
