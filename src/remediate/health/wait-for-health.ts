// Polls objects until each is healthy or failed, or the deadline passes. Reads
// are injected, so the loop is tested without a cluster and the revert decides
// where each object is read from (a GET, or an object it already holds).

import type { Health } from "../../model/health.ts";
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
}): Promise<Health[]> {
  const sleep = params.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
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
    const left = params.deadline - now();
    if (left <= 0) {
      for (const index of pending) {
        const last = results[index]!;
        results[index] = { status: "timed-out", message: `not ready in time: ${last.message}`, waited: true };
      }
      return results;
    }
    await sleep(Math.min(interval, left));
    interval = Math.min(interval * 2, maxInterval);
  }
}

function judge(object: KubeObject | undefined) {
  return object ? checkHealth(object) : { status: "not-ready" as const, message: "not found" };
}
