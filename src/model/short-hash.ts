// A short, stable name for some text: the first `length` hex digits of its
// SHA-256. Used where equal inputs must give equal ids across processes and
// restarts (drift fingerprints, notification ids, what a channel last heard),
// never as a secret's protection.
import { createHash } from "node:crypto";

export function shortHash(text: string, length = 16): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}
