// The progress line as a person at a terminal sees it: nothing for a step that
// ends within two seconds, then one line redrawn in place, erased before the
// report; and nothing at all on a pipe or with --output json. Fake timers move
// the clock; the assertions are about what is written, never about speed.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgressLine, describeProgress, progressReporter } from "../../../src/cli/progress.ts";
import type { ProgressEvent } from "../../../src/model/progress.ts";

const erase = "\r\x1b[2K";

function fakeStream(isTTY: boolean, columns = 200) {
  const chunks: string[] = [];
  return { isTTY, columns, chunks, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join("") };
}

const waiting = (count: number): ProgressEvent => ({
  step: "wait",
  total: 5,
  waiting: [
    {
      ref: { apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web" },
      message: `${count} of 3 replicas updated`,
    },
    { ref: { apiVersion: "v1", kind: "Service", namespace: "shop", name: "edge" } },
  ],
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the progress line", () => {
  it("appears after two seconds of a step, says what it waits for, and is redrawn in place", () => {
    const stream = fakeStream(true);
    const { onProgress, stop } = progressReporter({ output: "text", stream, env: {} });
    onProgress(waiting(1));
    vi.advanceTimersByTime(1900);
    expect(stream.chunks).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(stream.chunks).toEqual([
      `${erase}waiting for 2 of 5 (2s): Deployment shop/web (1 of 3 replicas updated), Service shop/edge`,
    ]);
    // News a moment later is drawn within a tenth of a second (bursts are not drawn one by one).
    onProgress(waiting(2));
    vi.advanceTimersByTime(100);
    expect(stream.chunks.at(-1)).toBe(
      `${erase}waiting for 2 of 5 (2s): Deployment shop/web (2 of 3 replicas updated), Service shop/edge`,
    );
    // With no news the line still ticks, so a long wait visibly lives.
    vi.advanceTimersByTime(3000);
    expect(stream.chunks.at(-1)).toContain(`${erase}waiting for 2 of 5 (5s): `);
    // Erased before the report, so the report starts on a clean line; nothing is drawn after.
    stop();
    expect(stream.chunks.at(-1)).toBe(erase);
    const written = stream.chunks.length;
    vi.advanceTimersByTime(10_000);
    expect(stream.chunks.length).toBe(written);
    // Never a newline: the line is only ever overwritten, so nothing of it stays in the scrollback.
    expect(stream.text()).not.toContain("\n");
  });

  it("never shows a step that ends within two seconds, and restarts the clock for a new step", () => {
    const stream = fakeStream(true);
    const line = createProgressLine(stream);
    line.update(describeProgress({ step: "scan", target: "shop" }));
    vi.advanceTimersByTime(1500);
    line.update(describeProgress({ step: "apply", done: 0, total: 40, dryRun: false }));
    vi.advanceTimersByTime(1500);
    expect(stream.chunks).toEqual([]);
    line.update(describeProgress({ step: "apply", done: 12, total: 40, dryRun: false }));
    vi.advanceTimersByTime(500);
    expect(stream.chunks).toEqual([`${erase}applying 12 of 40 objects (2s)`]);
    line.stop();
  });

  it("once shown, shows the next step at once with its own clock", () => {
    const stream = fakeStream(true);
    const line = createProgressLine(stream);
    line.update(describeProgress({ step: "apply", done: 3, total: 4, dryRun: false }));
    vi.advanceTimersByTime(2500);
    line.update(describeProgress(waiting(0)));
    expect(stream.chunks.at(-1)).toContain(`${erase}waiting for 2 of 5 (0s): Deployment shop/web`);
    line.stop();
  });

  it("is cut to the terminal's width, since a wrapped line cannot be redrawn in place", () => {
    const stream = fakeStream(true, 40);
    const line = createProgressLine(stream);
    line.update(describeProgress(waiting(1)));
    vi.advanceTimersByTime(2000);
    const drawn = stream.chunks[0]!.slice(erase.length);
    expect(drawn).toBe("waiting for 2 of 5 (2s): Deployment sh…");
    expect(drawn.length).toBe(39);
    line.stop();
  });

  it("takes a terminal that tells no width as 80 columns", () => {
    const stream = fakeStream(true, 0);
    const line = createProgressLine(stream);
    line.update({ key: "wait", head: "waiting", detail: "x".repeat(200) });
    vi.advanceTimersByTime(2000);
    expect(stream.chunks[0]!.slice(erase.length)).toHaveLength(79);
    line.stop();
  });

  it("writes nothing on a pipe, with --output json, or on a dumb terminal", () => {
    const cases = [
      { stream: fakeStream(false), output: "text", env: {} },
      { stream: fakeStream(true), output: "json", env: {} },
      { stream: fakeStream(true), output: "text", env: { TERM: "dumb" } },
    ];
    for (const { stream, output, env } of cases) {
      const { onProgress, stop } = progressReporter({ output, stream, env });
      onProgress(waiting(1));
      vi.advanceTimersByTime(60_000);
      stop();
      expect(stream.chunks).toEqual([]);
    }
  });

  it("says what each step does", () => {
    const lines = (
      [
        { step: "scan", target: "shop" },
        { step: "apply", done: 1, total: 2, dryRun: true },
        { step: "prune", total: 3, dryRun: false },
        { step: "preview", target: "shop" },
      ] as ProgressEvent[]
    ).map((e) => describeProgress(e).head);
    expect(lines).toEqual(["scanning shop", "dry-run applying 1 of 2 objects", "pruning 3 objects", "previewing shop"]);
  });
});
