// Ctrl-C during `undrift revert`, with signals sent to a stand-in for `process`
// (the real SIGINT path is test/end-to-end/revert-interrupt.test.ts): before
// anything is applied it exits at once; once applying, it stops and lets the
// revert report; a second Ctrl-C exits at once; the same Ctrl-C passed on twice
// (npx, the Node hand-over) counts once.
import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { interruptibleRevert } from "../../../src/cli/interruptible-revert.ts";
import type { RevertResult } from "../../../src/model/change-set.ts";
import type { OnProgress, ProgressEvent } from "../../../src/model/progress.ts";

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    on: (s: NodeJS.Signals, l: (s: NodeJS.Signals) => void) => emitter.on(s, l),
    off: (s: NodeJS.Signals, l: (s: NodeJS.Signals) => void) => emitter.off(s, l),
    exit: (code: number) => void exits.push(code),
    send: (s: NodeJS.Signals) => emitter.emit(s, s),
    listeners: () => emitter.listenerCount("SIGINT") + emitter.listenerCount("SIGTERM"),
    exits,
  };
}

function fakeStderr() {
  const chunks: string[] = [];
  return { isTTY: false, chunks, write: (c: string) => chunks.push(c) };
}

const result = { target: "shop", resources: [] } as unknown as RevertResult;

/** A revert that runs until the test lets it finish, recording whether it saw its signal abort. */
function heldRevert() {
  let finish = () => {};
  let seen: AbortSignal | undefined;
  let progress: OnProgress = () => {};
  const run = vi.fn(async ({ signal, onProgress }: { signal: AbortSignal; onProgress: OnProgress }) => {
    seen = signal;
    progress = onProgress;
    await new Promise<void>((resolve) => {
      finish = resolve;
      signal.addEventListener("abort", () => resolve());
    });
    return result;
  });
  return { run, finish: () => finish(), signal: () => seen, progress: (e: ProgressEvent) => progress(e) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Ctrl-C during revert", () => {
  it("exits at once with 130 while it is still scanning: nothing was applied", async () => {
    const proc = fakeProcess();
    const stderr = fakeStderr();
    const revert = heldRevert();
    const running = interruptibleRevert({ output: "text", stderr, process: proc }, revert.run);
    revert.progress({ step: "scan", target: "shop" });
    proc.send("SIGINT");
    expect(proc.exits).toEqual([130]);
    expect(stderr.chunks).toEqual(["interrupted by SIGINT before anything was applied\n"]);
    revert.finish();
    await running;
  });

  it("once applying, stops the revert and lets it report; a second Ctrl-C exits at once", async () => {
    const proc = fakeProcess();
    const stderr = fakeStderr();
    const revert = heldRevert();
    const running = interruptibleRevert({ output: "text", stderr, process: proc }, revert.run);
    revert.progress({ step: "apply", done: 1, total: 1, dryRun: false });
    revert.progress({ step: "wait", total: 1, waiting: [] });
    proc.send("SIGINT");
    expect(proc.exits).toEqual([]);
    expect(revert.signal()?.aborted).toBe(true);
    expect(stderr.chunks.join("")).toMatch(/^interrupted by SIGINT: stopping after the applies in flight/);
    // The same Ctrl-C passed on by a parent process a moment later is not a second one.
    proc.send("SIGINT");
    expect(proc.exits).toEqual([]);
    vi.advanceTimersByTime(1000);
    proc.send("SIGINT");
    expect(proc.exits).toEqual([130]);
    await expect(running).resolves.toBe(result);
  });

  it("treats SIGTERM as SIGINT, and leaves no handler behind once the revert returns", async () => {
    const proc = fakeProcess();
    const revert = heldRevert();
    const running = interruptibleRevert({ output: "text", stderr: fakeStderr(), process: proc }, revert.run);
    expect(proc.listeners()).toBe(2);
    revert.progress({ step: "apply", done: 0, total: 3, dryRun: false });
    proc.send("SIGTERM");
    expect(revert.signal()?.aborted).toBe(true);
    await running;
    expect(proc.listeners()).toBe(0);
  });
});
