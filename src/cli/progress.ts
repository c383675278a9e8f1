// The CLI's progress line, as `kubectl rollout status` and `docker pull` keep one:
// on stderr, only when stderr is a terminal (never on a pipe or in a CI log, never
// with --output json), only once a step has taken about two seconds, one line
// redrawn in place (carriage return and erase-line) with the step's elapsed
// seconds, and erased before the command prints its report. Usage:
//   const progress = progressReporter({ output });
//   try { await revertTarget({ ..., onProgress: progress.onProgress }); } finally { progress.stop(); }

import { objectName } from "../model/object-label.ts";
import type { OnProgress, ProgressEvent } from "../model/progress.ts";

/** What the line is written to: process.stderr, or a fake with isTTY in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): unknown;
}

/** One step as the line shows it: `${head} (12s): ${detail}`; a new key restarts the clock. */
export interface ProgressStep {
  key: string;
  head: string;
  detail?: string;
}

export interface ProgressLine {
  update(step: ProgressStep): void;
  /** Erases the line (if drawn) and stops its timers; a later update starts over. */
  stop(): void;
}

/** A step shows once it has run this long: shorter ones would only flicker. */
export const progressDelayMs = 2000;
const tickMs = 1000;
const throttleMs = 100;
const erase = "\r\x1b[2K";

/** Whether progress may be drawn: a terminal that can erase a line, and output meant for people. */
export function progressEnabled(stream: ProgressStream, output: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && output !== "json" && env.TERM !== "dumb";
}

/** The line itself, drawn on `stream` whatever it is (the caller decides with progressEnabled). */
export function createProgressLine(stream: ProgressStream): ProgressLine {
  let current: (ProgressStep & { since: number }) | undefined;
  let delay: NodeJS.Timeout | undefined;
  let ticker: NodeJS.Timeout | undefined;
  // Once the line has appeared, later steps show at once: hiding it again between steps would flicker.
  let shown = false;
  let drawn = 0;
  let trailing: NodeJS.Timeout | undefined;

  const draw = () => {
    clearTimeout(trailing);
    trailing = undefined;
    if (!current) return;
    shown = true;
    drawn = Date.now();
    const seconds = Math.floor((Date.now() - current.since) / 1000);
    const text = `${current.head} (${seconds}s)${current.detail ? `: ${current.detail}` : ""}`;
    stream.write(`${erase}${fitWidth(text, stream.columns)}`);
    // Redrawn every second even without news, so a long wait visibly lives.
    ticker ??= setInterval(draw, tickMs).unref();
  };

  return {
    update(step) {
      const same = current !== undefined && current.key === step.key;
      current = { ...step, since: current && same ? current.since : Date.now() };
      if (shown) {
        // A burst of updates (one per applied object) is drawn at most every tenth of a second, the last one included.
        const wait = same ? drawn + throttleMs - Date.now() : 0;
        if (wait <= 0) draw();
        else trailing ??= setTimeout(draw, wait).unref();
        return;
      }
      if (same) return;
      clearTimeout(delay);
      delay = setTimeout(draw, progressDelayMs).unref();
    },
    stop() {
      clearTimeout(delay);
      clearTimeout(trailing);
      clearInterval(ticker);
      delay = trailing = ticker = undefined;
      if (shown) stream.write(erase);
      shown = false;
      current = undefined;
    },
  };
}

/**
 * A line wider than the terminal would wrap, and then the carriage return no longer redraws it. A terminal
 * that tells no width (a pseudo-terminal nobody sized says 0) is taken as 80 columns, as most tools do.
 */
function fitWidth(text: string, columns: number | undefined): string {
  const room = (columns && columns > 10 ? columns : 80) - 1;
  return text.length <= room ? text : `${text.slice(0, room - 1)}…`;
}

/** How a stage's progress event reads on the line. */
export function describeProgress(event: ProgressEvent): ProgressStep {
  switch (event.step) {
    case "scan":
      return { key: "scan", head: `scanning ${event.target}` };
    case "apply":
      return {
        key: "apply",
        head: `${event.dryRun ? "dry-run applying" : "applying"} ${event.done} of ${event.total} objects`,
      };
    case "wait": {
      const detail = event.waiting
        .map((w) => `${w.ref.kind} ${objectName(w.ref)}${w.message ? ` (${w.message})` : ""}`)
        .join(", ");
      return { key: "wait", head: `waiting for ${event.waiting.length} of ${event.total}`, detail };
    }
    case "prune":
      return { key: "prune", head: `${event.dryRun ? "dry-run pruning" : "pruning"} ${event.total} objects` };
    case "preview":
      return {
        key: "preview",
        head: `previewing ${event.target}`,
        detail: "rendering base and head, dry-running head",
      };
  }
}

/** The stage's callback and the line's stop, or do-nothing twins when progress is not to be drawn. */
export function progressReporter(params: { output: string; stream?: ProgressStream; env?: NodeJS.ProcessEnv }): {
  onProgress: OnProgress;
  stop: () => void;
} {
  const stream = params.stream ?? process.stderr;
  if (!progressEnabled(stream, params.output, params.env)) return { onProgress: () => {}, stop: () => {} };
  const line = createProgressLine(stream);
  return { onProgress: (event) => line.update(describeProgress(event)), stop: () => line.stop() };
}
