// The one reading of an HTTP Retry-After header (RFC 9110 §10.2.3): delay-seconds (a whole number) or an
// HTTP-date. GitHub, the API server and a chat channel's webhook each send it; each caller keeps its own
// policy for what to do with the wait (a cap, a fallback when there is none), but all read it the same way,
// so an empty header is not "retry at once" and a date from a proxy is not "unreadable" in one place only.

/** The wait a Retry-After value asks for, in milliseconds from `now` (0 for a date in the past); undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | readonly string[] | null | undefined,
  now = Date.now(),
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // The three HTTP-date forms all start with a day's name; V8's Date.parse would also take "1.5" or "-1" as
  // dates in 2001, which would mean "at once".
  if (!/^(mon|tue|wed|thu|fri|sat|sun)/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
