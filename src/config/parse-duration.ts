// Durations in the config read like Go's and Flux's (`30s`, `15m`, `1h30m`):
// whole hours, minutes and seconds, largest unit first.

/** The grammar of a duration; the JSON Schema repeats it so that editors check it too. */
export const DURATION_PATTERN = /^(?=\d)(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** Milliseconds in a duration such as `1h30m`, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  const [, hours = "0", minutes = "0", seconds = "0"] = match;
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
}
