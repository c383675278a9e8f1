// SIGTERM (Kubernetes, systemd) and SIGINT (Ctrl-C) close the process's queues
// and workers gracefully; a second signal gives up and exits at once.

/** Calls `close` on the first of `signals`, then sets the exit code; returns a function that removes the handlers. */
export function closeOnSignals(
  close: () => Promise<void>,
  options: { signals?: readonly NodeJS.Signals[]; onError?: (error: unknown) => void } = {},
): () => void {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) {
      process.exit(signal === "SIGINT" ? 130 : 143);
    }
    closing = true;
    close().then(
      () => {
        process.exitCode ??= 0;
      },
      (error: unknown) => {
        process.exitCode = 1;
        (options.onError ?? ((e) => console.error(e)))(error);
      },
    );
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
