// Unknown keys are errors so that typos are caught; the message then names the
// key that was probably meant, found by walking the schema to the object.

import type { z } from "zod";
import { editDistance } from "../model/edit-distance.ts";

type Def = { type: string } & Record<string, unknown>;

/** `unknown field; did you mean "prune"?` with the key meant, or the allowed keys when the object has few. */
export function describeUnknownKey(
  schema: z.core.$ZodType,
  objectPath: readonly PropertyKey[],
  key: string,
): { message: string; suggestion?: string } {
  const known = knownKeys(schema, objectPath);
  const suggestion = closest(simplify(key), known);
  if (suggestion) return { message: `unknown field; did you mean "${suggestion}"?`, suggestion };
  if (known.length > 0 && known.length <= 8) return { message: `unknown field; expected one of ${known.join(", ")}` };
  return { message: "unknown field" };
}

// A near spelling (`prnue`), or the one key the text abbreviates (`repos`).
function closest(wanted: string, known: string[]): string | undefined {
  const best = known
    .map((name) => ({ name, distance: editDistance(wanted, simplify(name)) }))
    .sort((a, b) => a.distance - b.distance)[0];
  if (best && best.distance <= Math.min(2, Math.floor(wanted.length / 2))) return best.name;
  const prefixed = known.filter((name) => simplify(name).startsWith(wanted));
  return wanted.length >= 3 && prefixed.length === 1 ? prefixed[0] : undefined;
}

function knownKeys(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let def = unwrap(schema);
  for (const key of path) {
    let next: unknown;
    if (def.type === "object") next = (def.shape as Record<string, unknown>)[String(key)];
    else if (def.type === "array") next = def.element;
    else if (def.type === "record") next = def.valueType;
    if (next === undefined) return [];
    def = unwrap(next as z.core.$ZodType);
  }
  return def.type === "object" ? Object.keys(def.shape as object) : [];
}

// Defaults, optionals and transforms wrap the schema that holds the keys.
function unwrap(schema: z.core.$ZodType): Def {
  let def = schema._zod.def as unknown as Def;
  for (;;) {
    const inner = def.type === "pipe" ? def.in : def.innerType;
    if (inner === undefined) return def;
    def = (inner as z.core.$ZodType)._zod.def as unknown as Def;
  }
}

// Case, `-` and `_` differences are typos of the same name (`field_manager`).
function simplify(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, "");
}
