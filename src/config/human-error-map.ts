// Zod's default messages are written for developers ("Invalid option: expected
// one of \"warn\"|\"codify\""); config errors are read by whoever edits the YAML.
import type { z } from "zod";

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "a map",
  record: "a map",
  map: "a map",
  null: "nothing",
};

/** A zod error map that says what was expected and what the file holds, in plain words. */
export const humanErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "required field is missing";
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${String(issue.values[0])}`
        : `expected one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case "too_big":
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case "invalid_union":
      return `${describeValue(issue.input)} is not valid here`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
};

/** What a parsed YAML value is, as a person would say it: `a list`, `a number`, `an empty value`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "an empty value";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a map";
  // YAML's .nan and .inf are numbers to JavaScript, but not numbers a setting can hold.
  if (typeof value === "number" && Number.isNaN(value)) return "NaN (.nan)";
  if (value === Number.POSITIVE_INFINITY || value === Number.NEGATIVE_INFINITY) return "infinity (.inf)";
  return `a ${typeof value}`;
}

function tooSmall(origin: string, minimum: number, inclusive: boolean): string {
  if (origin === "string" && minimum === 1) return "must not be empty";
  if (origin === "array") return `expected at least ${minimum} item${minimum === 1 ? "" : "s"}`;
  if (origin === "string") return `expected at least ${minimum} characters`;
  return inclusive ? `expected at least ${minimum}` : `expected more than ${minimum}`;
}

function tooBig(origin: string, maximum: number, inclusive: boolean): string {
  if (origin === "array") return `expected at most ${maximum} item${maximum === 1 ? "" : "s"}`;
  if (origin === "string") return `expected at most ${maximum} characters`;
  return inclusive ? `expected at most ${maximum}` : `expected less than ${maximum}`;
}
