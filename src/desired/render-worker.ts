// Worker thread entry: renders one target and posts the result (or the error's
// fields) back. See render-in-worker.ts for why.
import { parentPort, workerData } from "node:worker_threads";
import { type RenderTarget, renderTarget } from "./render-target.ts";

const { repoDir, target } = workerData as { repoDir: string; target: RenderTarget };
try {
  parentPort!.postMessage({ ok: true, result: await renderTarget({ repoDir, target }) });
} catch (error) {
  const e = error as { name?: string; message?: string; file?: string; line?: number };
  parentPort!.postMessage({
    ok: false,
    error: { name: e.name ?? "Error", message: e.message ?? String(error), file: e.file, line: e.line },
  });
}
