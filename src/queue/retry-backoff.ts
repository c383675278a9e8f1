// How long a failed scan waits before its retry: BullMQ's exponential backoff
// (the first delay, doubling each time), but never less than the failure
// itself asked for. A GitHub rate limit says when to come back (Retry-After,
// or the quota's reset); a retry sooner than that is refused again and spends
// an attempt, and GitHub may extend a secondary limit for clients that ignore it.
import type { MinimalJob } from "bullmq";

/** The backoff type scan jobs carry; workers resolve it with `retryBackoff`. */
export const RETRY_BACKOFF = "undrift-retry";

/** BullMQ's `backoffStrategy`: `delay * 2^(attemptsMade - 1)`, at least the error's `retryAfterMs`. */
export function retryBackoff(attemptsMade: number, _type?: string, error?: Error, job?: MinimalJob): number {
  const delay = Number((job?.opts.backoff as { delay?: number } | undefined)?.delay ?? 0);
  const exponential = Math.round(2 ** Math.max(0, attemptsMade - 1) * delay);
  return Math.max(exponential, retryAfterMs(error) ?? 0);
}

/** The wait an error (or an error it wraps) asks for, as GitHubError's `retryAfterMs` says it. */
export function retryAfterMs(error: unknown, depth = 0): number | undefined {
  if (!(error instanceof Error) || depth > 8) return undefined;
  const own = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof own === "number" && Number.isFinite(own) && own >= 0) return own;
  return retryAfterMs(error.cause, depth + 1);
}
