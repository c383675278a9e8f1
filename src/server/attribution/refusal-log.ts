// Refused posts said in the log at most once a minute, with how many there were:
// a flood of them (a misconfigured cluster, or someone probing) must not flood the log.

/** At most one line per this long; the refusals between two lines are counted in the second. */
export const REFUSAL_LOG_MS = 60_000;

/** Counts a refusal, and calls `say` with the count when a minute has passed since it last did. */
export function refusalLog<A extends unknown[]>(
  say: (count: number, ...about: A) => void,
  everyMs = REFUSAL_LOG_MS,
): (...about: A) => void {
  let since = 0;
  let count = 0;
  return (...about) => {
    count++;
    const now = Date.now();
    if (now - since < everyMs) return;
    say(count, ...about);
    since = now;
    count = 0;
  };
}
