// How an error reaches a person on the command line: one line on stderr.

/** The error's message on one line (API messages can span several). */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, " ").trim();
}
