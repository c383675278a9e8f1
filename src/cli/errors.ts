import { UndriftError } from "../model/undrift-error.ts";

/** A mistake in how undrift was called: printed as one line, exit code 2, no stack trace. */
export class UsageError extends UndriftError {
  override name = "UsageError";
  // Only the CLI throws it: no job sees it.
  readonly permanent = true;
}
