// Comparing a secret-derived string (a signature, a token, an OAuth state) with
// the one presented, in time that does not depend on where they first differ,
// so an attacker cannot find the right value a character at a time.
import { timingSafeEqual } from "node:crypto";

/** Whether `a` and `b` are the same text, compared in constant time (a length difference returns at once). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
