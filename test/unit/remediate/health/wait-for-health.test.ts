import { describe, expect, it } from "vitest";
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
});
