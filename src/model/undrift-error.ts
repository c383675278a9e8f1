// The base of every undrift error. Each error says on itself whether a retry
// could help, so the queue judges an error by reading it, not by a list of
// classes from every folder (STYLE.md habit 2):
//
//   export class ConfigError extends UndriftError {
//     override name = "ConfigError";
//     readonly permanent = true; // the same file fails the same way on every retry
//   }
//
// An error that does not say (a plain Error, Octokit's RequestError, fetch's
// TypeError) is retried only when it is a known transient kind: a network
// error, an HTTP 5xx, 429, 409 conflict and the other retryable statuses, or a
// wrapper whose cause is one. Anything else fails for good with its message.

/** An undrift error: `permanent` true fails the job for good and reports it; false retries it with backoff. */
export abstract class UndriftError extends Error {
  override name = "UndriftError";
  abstract readonly permanent: boolean;
}

/** A judgement of one error (true: permanent) before its own flag and kind are read; undefined: no opinion. */
export type PermanentHook = (error: unknown) => boolean | undefined;

/** Whether a retry of what failed with `error` is pointless; `hook` is asked first, and causes are followed through wrappers. */
export function isPermanent(error: unknown, hook?: PermanentHook, depth = 0): boolean {
  const verdict = hook?.(error);
  if (verdict !== undefined) return verdict;
  if (error instanceof UndriftError) return error.permanent;
  const status = httpStatus(error);
  if (status !== undefined) return !isTransientStatus(status);
  if (isNetworkError(error)) return false;
  // Wrappers (fetch's TypeError, a plain Error with a cause) carry the error that decides in `cause`.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause !== undefined && depth < 8) return isPermanent(cause, hook, depth + 1);
  return true;
}

/** An HTTP status worth a retry: 5xx, timeout, conflict (a write raced another), expired continue token, too early, too many requests. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || [408, 409, 410, 425, 429].includes(status);
}

// Node's and undici's codes for a connection that failed or broke.
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

// Any client error with a numeric HTTP status (Octokit's RequestError has one).
function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 600 ? status : undefined;
}

// ioredis says a lost Redis connection with a plain Error (no code) or its own
// MaxRetriesPerRequestError: a Redis restart mid-job, which a retry outlives.
const REDIS_CONNECTION_LOST = new Set([
  "Connection is closed.",
  "Stream isn't writeable and enableOfflineQueue options is false",
]);

function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError" || error.name === "TimeoutError") return true;
  if (error.name === "MaxRetriesPerRequestError" || REDIS_CONNECTION_LOST.has(error.message)) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && NETWORK_CODES.has(code);
}
