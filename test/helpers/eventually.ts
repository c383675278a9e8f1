// The one poll of the test suite: every wait for something another process,
// the cluster or Redis does goes through `eventually`, so a timeout always names
// what was awaited and the probe's last answer.

/** How long `eventually` polls and how often. */
export interface EventuallyOptions {
  /** Fails after this many milliseconds (default 90 s). */
  timeoutMs?: number;
  /** Waits this long between two probes (default 500 ms). */
  intervalMs?: number;
}

/** Thrown by a probe when waiting longer cannot help (the process it waits on exited): `eventually` fails at once. */
export class GaveUp extends Error {
  override name = "GaveUp";
}

/**
 * Polls `probe` (sync or async) until it returns a value other than undefined or false; after the timeout fails
 * naming `what` and the probe's last answer (the error it threw, or what it answered), so a timeout says why, as
 * Gomega's Eventually does. The third argument is the timeout in milliseconds or the options.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: number | EventuallyOptions = {},
): Promise<Exclude<T, false | undefined>> {
  const { timeoutMs = 90_000, intervalMs = 500 } = typeof options === "number" ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  let last = "the probe answered nothing yet";
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as Exclude<T, false | undefined>;
      last = value === false ? "the probe last answered false" : "the probe answered nothing yet";
    } catch (error) {
      if (error instanceof GaveUp) throw new Error(`gave up waiting for ${what}: ${error.message}`);
      last = `the probe last threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${last}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
