// `undrift audit --since T`: a moment as a person types it, either an ISO date
// or date-time (2026-11-30, 2026-11-30T10:00:00Z) or a span back from now
// (90m, 24h, 7d, 1d12h).
import { UndriftError } from "../model/undrift-error.ts";

/** A --since value that is neither a date nor a span. */
export class SinceError extends UndriftError {
  override name = "SinceError";
  // Only the CLI throws it: no job sees it.
  readonly permanent = true;
}

const SPAN = /^(?=\d)(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The moment `text` names, relative spans counted back from `now`. */
export function parseSince(text: string, now: Date = new Date()): Date {
  const value = text.trim();
  const span = SPAN.exec(value);
  if (span) {
    const [, days = "0", hours = "0", minutes = "0", seconds = "0"] = span;
    const ms = (((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
    return new Date(now.getTime() - ms);
  }
  if (ISO.test(value)) {
    // A date without a zone is UTC, as Date.parse reads a bare date; say so rather than guess local time.
    const withZone = /T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || !value.includes("T") ? value : `${value}Z`;
    const time = Date.parse(withZone);
    if (!Number.isNaN(time)) return new Date(time);
  }
  throw new SinceError(
    `--since: expected a date (2026-11-30, 2026-11-30T10:00:00Z) or a span (90m, 24h, 7d), got "${text}"`,
  );
}
