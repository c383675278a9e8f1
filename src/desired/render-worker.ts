// Worker thread entry: renders the targets it is sent, one message each, and
// posts each result (or the error's fields) back. See render-in-worker.ts for why.
import { parentPort } from "node:worker_threads";
import type { Reply, Request } from "./render-in-worker.ts";
import { renderTarget } from "./render-target.ts";

parentPort!.on("message", async ({ id, repoDir, target, variables, env }: Request) => {
  // The environment as the caller has it now, as a thread started for this render would have had it.
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  let reply: Reply;
  try {
    reply = { id, ok: true, result: await renderTarget({ repoDir, target, variables }) };
  } catch (error) {
    const e = error as { name?: string; message?: string; file?: string; line?: number };
    reply = {
      id,
      ok: false,
      error: { name: e.name ?? "Error", message: e.message ?? String(error), file: e.file, line: e.line },
    };
  }
  parentPort!.postMessage(reply);
});
