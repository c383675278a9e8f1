// Polls objects until each is healthy or failed, or the deadline passes, or the
// caller is interrupted (Ctrl-C). Reads are injected, so the loop is tested
// without a cluster and the revert decides where each object is read from (a
// GET, or an object it already holds).

import type { Health, Readiness } from "../../model/health.ts";
import type { KubeObject } from "../../model/types.ts";
import { checkHealth } from "./check-health.ts";

export interface HealthWatch<T> {
  item: T;
  /** The object as it stands now; undefined when it no longer exists. */
  read(): Promise<KubeObject | undefined>;
}

const firstInterval = 250;
const maxInterval = 2000;

/**
 * The health of each item, in order. With `wait: false` (or a deadline already passed) every object is
 * read once and judged as it is; with `wait: true` unready ones are read again, backing off, until the deadline.
 */
export async function waitForHealth<T>(params: {
  watches: Array<HealthWatch<T>>;
  wait: boolean;
  /** Epoch milliseconds after which waiting stops. */
  deadline: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Stops the wait: what is not ready yet is recorded as interrupted, as it stood at its last read. */
  signal?: AbortSignal;
  /** After each round of reads while waiting: the items not ready yet, with why. */
  onRound?: (pending: Array<{ item: T; readiness: Readiness }>) => void;
}): Promise<Health[]> {
  const { signal } = params;
  const sleep = params.sleep ?? ((ms: number) => abortableSleep(ms, signal));
  const now = params.now ?? Date.now;
  const results = new Array<Health>(params.watches.length);
  let pending = params.watches.map((_, index) => index);
  let interval = firstInterval;
  for (;;) {
    const judged = await Promise.all(pending.map(async (index) => judge(await params.watches[index]!.read())));
    const next: number[] = [];
    judged.forEach((readiness, i) => {
      const index = pending[i]!;
      results[index] = { ...readiness, waited: params.wait };
      if (readiness.status === "not-ready") next.push(index);
    });
    pending = next;
    if (!params.wait || pending.length === 0) return results;
    if (signal?.aborted) {
      for (const index of pending) {
        const last = results[index]!;
        // Still not-ready, which is what the last read said; the message says why the wait ended.
        results[index] = { status: "not-ready", message: `interrupted while waiting: ${last.message}`, waited: true };
      }
      return results;
    }
    const left = params.deadline - now();
    if (left <= 0) {
      for (const index of pending) {
        const last = results[index]!;
        results[index] = { status: "timed-out", message: `not ready in time: ${last.message}`, waited: true };
      }
      return results;
    }
    params.onRound?.(pending.map((index) => ({ item: params.watches[index]!.item, readiness: results[index]! })));
    await sleep(Math.min(interval, left));
    interval = Math.min(interval * 2, maxInterval);
  }
}

/** A timer that ends early when the signal aborts, so Ctrl-C does not wait out a back-off. */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function judge(object: KubeObject | undefined) {
  return object ? checkHealth(object) : { status: "not-ready" as const, message: "not found" };
}
