// How a long-running undrift process ends: SIGTERM or SIGINT closes it
// gracefully (running scans finish or are handed back), then the process
// exits even if a library left a connection open.
import { closeOnSignals } from "../queue/close-on-signals.ts";

/** Resolves with the exit code once a signal has closed everything. */
export function serveUntilSignal(close: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    closeOnSignals(async () => {
      try {
        await close();
      } finally {
        // Unreferenced: when nothing else holds the process it ends on its own, sooner.
        setTimeout(() => process.exit(), 2000).unref();
        resolve(process.exitCode === undefined ? 0 : Number(process.exitCode));
      }
    });
  });
}
