// How `undrift revert` meets the person at the terminal: a progress line while
// it runs, and Ctrl-C (SIGINT) or SIGTERM handled the way `docker compose` and
// `helm` do. Before anything is written (the scan) a signal exits at once; once
// applying has begun, the first signal stops the revert gracefully (applies in
// flight finish, waits end) so its report says what was applied, and exits 130;
// a second signal exits at once. A signal that comes within half a second of the
// first is the same Ctrl-C told twice (npx and the Node hand-over in
// bin/undrift.js pass the terminal's signal on to a process that got it too).

import type { RevertResult } from "../model/change-set.ts";
import type { OnProgress } from "../model/progress.ts";
import { interruptedExitCode } from "../stages/revert/revert-exit-code.ts";
import { type ProgressStream, progressReporter } from "./progress.ts";

/** The part of `process` this uses, so tests can send signals without ending the test runner. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): void;
}

const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];
const sameSignalMs = 500;

/** Runs the revert with progress and graceful interruption; the result carries `interrupted` when a signal stopped it. */
export async function interruptibleRevert(
  params: { output: string; stderr?: ProgressStream; process?: SignalSource; env?: NodeJS.ProcessEnv },
  run: (hooks: { onProgress: OnProgress; signal: AbortSignal }) => Promise<RevertResult>,
): Promise<RevertResult> {
  const stderr = params.stderr ?? process.stderr;
  const source = params.process ?? process;
  const progress = progressReporter({
    output: params.output,
    stream: stderr,
    ...(params.env ? { env: params.env } : {}),
  });
  const controller = new AbortController();
  let applying = false;
  let firstAt = 0;

  const onProgress: OnProgress = (event) => {
    if (event.step !== "scan") applying = true;
    if (!controller.signal.aborted) progress.onProgress(event);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      if (Date.now() - firstAt < sameSignalMs) return;
      stderr.write(`${signal} again: exiting at once; run revert again to see what was applied\n`);
      return source.exit(interruptedExitCode);
    }
    progress.stop();
    if (!applying) {
      stderr.write(`interrupted by ${signal} before anything was applied\n`);
      return source.exit(interruptedExitCode);
    }
    firstAt = Date.now();
    controller.abort();
    stderr.write(
      `interrupted by ${signal}: stopping after the applies in flight; the report follows (${signal} again quits at once)\n`,
    );
  };

  for (const s of signals) source.on(s, onSignal);
  try {
    return await run({ onProgress, signal: controller.signal });
  } finally {
    progress.stop();
    for (const s of signals) source.off(s, onSignal);
  }
}
