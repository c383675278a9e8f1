// The suite's one poll: what it takes as "not yet", and what a timeout says.
import { describe, expect, it } from "vitest";
import { eventually, GaveUp } from "../../helpers/eventually.ts";

describe("eventually", () => {
  it("returns the first answer that is neither undefined nor false, from a sync or an async probe", async () => {
    const answers = [undefined, false, "ready"];
    expect(await eventually("a value", () => answers.shift(), { intervalMs: 1 })).toBe("ready");
    let calls = 0;
    expect(await eventually("a count", async () => (++calls === 3 ? calls : undefined), { intervalMs: 1 })).toBe(3);
  });

  it("says on timeout what it waited for and the probe's last answer", async () => {
    await expect(eventually("the thing", () => false, { timeoutMs: 0, intervalMs: 1 })).rejects.toThrow(
      /^timed out after 0 ms waiting for the thing; the probe last answered false$/,
    );
    await expect(eventually("the thing", () => undefined, 0)).rejects.toThrow(
      /^timed out after 0 ms waiting for the thing; the probe answered nothing yet$/,
    );
    await expect(
      eventually(
        "the thing",
        () => {
          throw new Error("state delayed");
        },
        { timeoutMs: 0, intervalMs: 1 },
      ),
    ).rejects.toThrow(/^timed out after 0 ms waiting for the thing; the probe last threw: state delayed$/);
  });

  it("stops at once when the probe gives up", async () => {
    let calls = 0;
    await expect(
      eventually("the process", () => {
        calls++;
        throw new GaveUp("it exited");
      }),
    ).rejects.toThrow(/^gave up waiting for the process: it exited$/);
    expect(calls).toBe(1);
  });
});
