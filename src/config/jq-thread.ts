// The jq worker thread: jq-web loaded once, evaluating filters on request.
// Replies go through the port; the shared flag wakes the waiting caller.
import { createRequire } from "node:module";
import { type MessagePort, workerData } from "node:worker_threads";

interface JqWeb {
  json(value: unknown, filter: string): unknown;
}

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };
// jq-web is CommonJS whose module.exports is a promise; require() hands it over as it is.
const jq = await (createRequire(import.meta.url)("jq-web") as PromiseLike<JqWeb>);

port.on("message", ({ value, filter }: { value: unknown; filter: string }) => {
  let reply: { ok: true; output: unknown } | { ok: false; message: string; exitCode: unknown };
  try {
    reply = { ok: true, output: jq.json(value, filter) };
  } catch (error) {
    reply = {
      ok: false,
      message: String((error as Error).message),
      exitCode: (error as { exitCode?: unknown }).exitCode,
    };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
