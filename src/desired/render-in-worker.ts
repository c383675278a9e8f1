// Renders a target on a worker thread. Parsing thousands of YAML documents is
// the scan's largest piece of CPU work, and the main thread meanwhile has its
// own (loading the Kubernetes client, decoding LIST pages): on a second core the
// two overlap instead of queueing. Errors come back as the same classes.
import { Worker } from "node:worker_threads";
import { siblingModule } from "../model/sibling-module.ts";
import { RenderError } from "./render-error.ts";
import type { RenderResult, RenderTarget } from "./render-target.ts";
import { ToolNotFoundError } from "./tools.ts";

type Reply =
  | { ok: true; result: RenderResult }
  | { ok: false; error: { name: string; message: string; file?: string; line?: number } };

export function renderInWorker(params: { repoDir: string; target: RenderTarget }): Promise<RenderResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(siblingModule("./render-worker.ts", import.meta.url), {
      workerData: { repoDir: params.repoDir, target: structuredClone(params.target) },
    });
    let settled = false;
    worker.once("message", (reply: Reply) => {
      settled = true;
      if (reply.ok) resolve(reply.result);
      else reject(revive(reply.error));
      void worker.terminate();
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the render worker exited with code ${code} before answering`));
    });
  });
}

function revive(error: { name: string; message: string; file?: string; line?: number }): Error {
  if (error.name === "RenderError") {
    return new RenderError(error.message, {
      ...(error.file ? { file: error.file } : {}),
      ...(error.line ? { line: error.line } : {}),
    });
  }
  if (error.name === "ToolNotFoundError") return new ToolNotFoundError(error.message);
  return Object.assign(new Error(error.message), { name: error.name });
}
