import { describe, expect, it, vi } from "vitest";
import type { KubeObject } from "../../../../src/model/types.ts";
import { waitForHealth } from "../../../../src/remediate/health/wait-for-health.ts";

const crd = (established: boolean): KubeObject => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  status: { conditions: [{ type: "Established", status: established ? "True" : "False" }] },
});

/** A clock that moves only when the waiter sleeps, so tests take no time. */
function fakeClock() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

describe("waiting for health", () => {
  it("reads each object again until it is healthy, backing off between reads", async () => {
    const clock = fakeClock();
    let reads = 0;
    const [health] = await waitForHealth({
      watches: [{ item: "crd", read: async () => crd(++reads >= 4) }],
      wait: true,
      deadline: 60_000,
      ...clock,
    });
    expect(health).toEqual({ status: "healthy", waited: true });
    expect(reads).toBe(4);
    expect(clock.slept).toEqual([250, 500, 1000]);
  });

  it("gives up at the deadline with the last reason", async () => {
    const clock = fakeClock();
    const [health] = await waitForHealth({
      watches: [{ item: "crd", read: async () => crd(false) }],
      wait: true,
      deadline: 3000,
      ...clock,
    });
    expect(health).toEqual({ status: "timed-out", message: "not ready in time: not Established yet", waited: true });
    expect(clock.now()).toBe(3000);
  });

  it("stops waiting for an object that has failed", async () => {
    const clock = fakeClock();
    const failed = {
      ...crd(false),
      status: { conditions: [{ type: "NamesAccepted", status: "False", reason: "KindConflict" }] },
    };
    const [health] = await waitForHealth({
      watches: [{ item: 1, read: async () => failed }],
      wait: true,
      deadline: 60_000,
      ...clock,
    });
    expect(health?.status).toBe("failed");
    expect(clock.slept).toEqual([]);
  });

  it("judges once without waiting when not asked to wait", async () => {
    const clock = fakeClock();
    let reads = 0;
    const health = await waitForHealth({
      watches: [
        {
          item: "a",
          read: async () => {
            reads++;
            return crd(false);
          },
        },
        { item: "b", read: async () => undefined },
      ],
      wait: false,
      deadline: 60_000,
      ...clock,
    });
    expect(health).toEqual([
      { status: "not-ready", message: "not Established yet", waited: false },
      { status: "not-ready", message: "not found", waited: false },
    ]);
    expect(reads).toBe(1);
  });

  it("stops when interrupted, recording what is not ready yet as interrupted with its last reason", async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    let reads = 0;
    const health = await waitForHealth({
      watches: [
        { item: "ready", read: async () => crd(true) },
        {
          item: "late",
          read: async () => {
            // Ctrl-C arrives during the second round of reads.
            if (++reads === 2) controller.abort();
            return crd(false);
          },
        },
      ],
      wait: true,
      deadline: 60_000,
      signal: controller.signal,
      ...clock,
    });
    expect(health).toEqual([
      { status: "healthy", waited: true },
      { status: "not-ready", message: "interrupted while waiting: not Established yet", waited: true },
    ]);
    expect(reads).toBe(2);
  });

  it("tells after each round which objects it still waits for, and why", async () => {
    const clock = fakeClock();
    let reads = 0;
    const rounds: unknown[] = [];
    await waitForHealth({
      watches: [
        { item: "a", read: async () => crd(++reads >= 3) },
        { item: "b", read: async () => crd(true) },
      ],
      wait: true,
      deadline: 60_000,
      onRound: (pending) => rounds.push(pending),
      ...clock,
    });
    const a = { item: "a", readiness: { status: "not-ready", message: "not Established yet", waited: true } };
    expect(rounds).toEqual([[a], [a]]);
  });

  it("ends a back-off sleep at once when interrupted, and judges the object as it then stands", async () => {
    // Fake timers never fire here: only the abort can end the sleep.
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      let reads = 0;
      const [health] = await waitForHealth({
        watches: [{ item: "crd", read: async () => crd(++reads > 99) }],
        wait: true,
        deadline: Date.now() + 3_600_000,
        signal: controller.signal,
        // Ctrl-C while the waiter sleeps (the sleep starts right after this returns).
        onRound: () => void Promise.resolve().then(() => controller.abort()),
      });
      expect(health).toEqual({
        status: "not-ready",
        message: "interrupted while waiting: not Established yet",
        waited: true,
      });
      expect(reads).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
