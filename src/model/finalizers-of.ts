// An object's finalizers as the names they are: what holds an object being deleted, for the words that say so.
import type { ObjectMeta } from "./types.ts";

/** The string entries of `metadata.finalizers`; none when the field is absent or not a list. */
export function finalizersOf(metadata: ObjectMeta | undefined): string[] {
  const finalizers = metadata?.finalizers;
  return Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === "string") : [];
}
