// Where in its period a target's scheduled scan fires. A hash of the target's
// key spreads targets evenly over the period, so a hundred targets on a 15m
// schedule do not all scan one cluster at :00, :15, :30 and :45; and since it
// is derived, not random, a resync at boot computes the same offset and leaves
// the scheduler alone.
import { createHash } from "node:crypto";

/** An offset in [1, everyMs) for `key`, the same on every call; never 0, which BullMQ reads as "derive one from now". */
export function jitterOffset(key: string, everyMs: number): number {
  if (!Number.isInteger(everyMs) || everyMs < 2)
    throw new RangeError(`schedule period must be at least 2ms, got ${everyMs}`);
  const hash = createHash("sha256").update(key).digest().readUIntBE(0, 6);
  return 1 + (hash % (everyMs - 1));
}
