// A mistake in how undrift was called: printed as one line, exit code 2, no stack trace.
export class UsageError extends Error {
  override name = "UsageError";
}
