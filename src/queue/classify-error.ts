// The one place a job's error is judged (STYLE.md habit 2): permanent errors
// fail the job for good and are reported to the repository; transient ones are
// rethrown so BullMQ retries with backoff.
//
// An undrift error says which it is itself (UndriftError's `permanent`); the
// GitHub side's hook is asked first about its own errors. An error that says
// nothing is transient only when it is a known transient kind (a network
// error, 5xx, 429, 409 and the other retryable statuses, or a wrapper whose
// cause is one): anything else, a plain Error included, would fail each retry
// the same way, so it fails for good at once with its message.
import { isPermanent } from "../model/undrift-error.ts";

/** permanent: fail now and report; transient: retry with backoff. */
export type ErrorClass = "permanent" | "transient";

/** The GitHub side's judgement of its own errors: true transient, false permanent, undefined "not mine". */
export type IsTransient = (error: unknown) => boolean | undefined;

/** Whether `error` is worth a retry. `isTransient` is asked first; causes are followed through wrappers. */
export function classifyError(error: unknown, isTransient?: IsTransient): ErrorClass {
  const hook = isTransient && ((e: unknown) => invert(isTransient(e)));
  return isPermanent(error, hook) ? "permanent" : "transient";
}

const invert = (verdict: boolean | undefined) => (verdict === undefined ? undefined : !verdict);
