// Renders a target on a worker thread. Parsing thousands of YAML documents is
// the scan's largest piece of CPU work, and the main thread meanwhile has its
// own (loading the Kubernetes client, decoding LIST pages): on a second core the
// two overlap instead of queueing. Errors come back as the same classes.
//
// The threads are kept between renders. A thread of its own per render loaded
// the renderer's modules again each time, about 0.3 s of CPU: at 1,000 targets
// a cycle, that was most of a watching worker's cycle on 2 cores (README, "what
// the watches cost"). Kept threads are unref'd while idle, so they never hold a
// CLI run open, and one that dies fails only the renders it held.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { siblingModule } from "../model/sibling-module.ts";
import type { PostBuildVariables } from "./post-build/substitute-objects.ts";
import { RenderError } from "./render-error.ts";
import type { RenderResult, RenderTarget } from "./render-target.ts";
import { ToolNotFoundError } from "./tools.ts";

export type Reply = { id: number } & (
  | { ok: true; result: RenderResult }
  | { ok: false; error: { name: string; message: string; file?: string; line?: number } }
);

export interface Request {
  id: number;
  repoDir: string;
  target: RenderTarget;
  /** A Flux target's post-build variables: sent to the thread in memory, never logged. */
  variables?: PostBuildVariables | undefined;
  /** The caller's environment: the tools are looked up by it (UNDRIFT_KUSTOMIZE, PATH) and run with it. */
  env: Record<string, string | undefined>;
}

interface Pending {
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
}

class RenderThread {
  readonly pending = new Map<number, Pending>();
  private readonly gone: (thread: RenderThread) => void;
  private readonly worker = new Worker(siblingModule("./render-worker.ts", import.meta.url));

  constructor(gone: (thread: RenderThread) => void) {
    this.gone = gone;
    this.worker.unref();
    this.worker.on("message", (reply: Reply) => {
      const job = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if (reply.ok) job?.resolve(reply.result);
      else job?.reject(revive(reply.error));
    });
    this.worker.once("error", (error) => this.fail(error));
    this.worker.once("exit", (code) =>
      this.fail(new Error(`the render worker exited with code ${code} before answering`)),
    );
  }

  render(request: Request, job: Pending): void {
    this.pending.set(request.id, job);
    this.worker.ref();
    this.worker.postMessage(request);
  }

  heap(): Promise<{ used_heap_size: number; total_heap_size: number }> {
    return this.worker.getHeapStatistics();
  }

  private fail(error: Error): void {
    this.gone(this);
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}

class RenderPool {
  private readonly threads: RenderThread[] = [];
  private nextId = 1;
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  render(repoDir: string, target: RenderTarget, variables?: PostBuildVariables): Promise<RenderResult> {
    return new Promise((resolve, reject) => {
      // postMessage sends a structured clone: the caller's target and environment stay the caller's.
      const request: Request = { id: this.nextId++, repoDir, target, variables, env: { ...process.env } };
      this.thread().render(request, { resolve, reject });
    });
  }

  heaps(): Promise<{ used_heap_size: number; total_heap_size: number }[]> {
    return Promise.all(this.threads.map((t) => t.heap()));
  }

  /** An idle thread, else a new one while there are fewer than `size`, else the least busy. */
  private thread(): RenderThread {
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) {
      const thread = new RenderThread((dead) => {
        const at = this.threads.indexOf(dead);
        if (at >= 0) this.threads.splice(at, 1);
      });
      this.threads.push(thread);
      return thread;
    }
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }
}

// As many threads as cores: a render holds one while it parses, and helm and kustomize renders mostly wait on
// their binary, so a thread takes further renders meanwhile.
const pool = new RenderPool(availableParallelism());

export function renderInWorker(params: {
  repoDir: string;
  target: RenderTarget;
  variables?: PostBuildVariables | undefined;
}): Promise<RenderResult> {
  return pool.render(params.repoDir, params.target, params.variables);
}

/** Each render thread's V8 heap (used and total), for a benchmark's account of the worker's memory. */
export function renderThreadHeaps(): Promise<{ used_heap_size: number; total_heap_size: number }[]> {
  return pool.heaps();
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
