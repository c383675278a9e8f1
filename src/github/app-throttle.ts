// The throttling options of the app's Octokit (@octokit/plugin-throttling),
// undrift's own whatever Probot hands it. Two things differ from Probot's:
//   - the limiters are this process's (Bottleneck in memory), never a cluster on
//     Redis. Probot clusters them on REDIS_URL, and Bottleneck's Redis keys expire
//     after `timeout` idle (two minutes); on Redis 7 its recovery never runs
//     (Redis prefixes "ERR " to the script's error, Bottleneck compares the message
//     exactly: SGrondin/bottleneck#205, #219), so a request after an idle gap
//     failed with `ERR SETTINGS_KEY_NOT_FOUND` until the limiter's cleanup dropped
//     it. Nothing kept in memory expires. What per-process limiters give up is
//     spacing writes across replicas; GitHub's secondary limit, if a burst meets
//     it, is waited out by the job's retry (below).
//   - a rate limit is not waited out in place: the request fails, and its error
//     (a rate-limited GitHubError, src/github/github-errors.ts) delays the job's
//     retry by Retry-After, a minute when a secondary limit names none, or until
//     the quota resets (src/queue/retry-backoff.ts). A webhook is answered at once
//     instead of after a wait GitHub will not sit through, and a job does not hold
//     a worker's slot for up to an hour.

/** What the plugin reads from `throttle`, in the parts undrift keeps. */
export interface ThrottleOptions {
  enabled?: boolean;
  /** The limiters' key: Probot sets the installation id, so each installation is spaced on its own. */
  id?: string;
  /** How long an idle limiter is kept in memory (the plugin's default: two minutes). */
  timeout?: number;
  retryAfterBaseValue?: number;
  fallbackSecondaryRateRetryAfter?: number;
}

interface LimitedRequest {
  method: string;
  url: string;
}
interface LoggingOctokit {
  log: { warn(message: string): void };
}

// Only these of the options given are kept: a Redis `connection`, a `Bottleneck` or limiter groups are not.
const KEPT = ["enabled", "id", "timeout", "retryAfterBaseValue", "fallbackSecondaryRateRetryAfter"] as const;

/** The `throttle` option of the app's Octokit, from the one it was given (Probot's, or a test's). */
export function appThrottle(given: Record<string, unknown> | undefined) {
  const kept: ThrottleOptions = {};
  for (const key of KEPT) if (given?.[key] !== undefined) Object.assign(kept, { [key]: given[key] });
  if (kept.enabled === false) return { enabled: false as const };
  return {
    ...kept,
    onRateLimit: (retryAfter: number, options: LimitedRequest, octokit: LoggingOctokit) =>
      leaveToQueue("rate limit (quota used up)", retryAfter, options, octokit),
    onSecondaryRateLimit: (retryAfter: number, options: LimitedRequest, octokit: LoggingOctokit) =>
      leaveToQueue("secondary rate limit", retryAfter, options, octokit),
  };
}

/** false: no retry in place; the job's retry waits instead. */
function leaveToQueue(what: string, retryAfter: number, options: LimitedRequest, octokit: LoggingOctokit): false {
  octokit.log.warn(
    `GitHub ${what} on ${options.method} ${options.url}: not retried in place; GitHub asks for ${retryAfter}s, which a job's retry waits`,
  );
  return false;
}
