// Runs a config schema over parsed data and turns zod's issues into ConfigIssues
// that name the field the way the user wrote it, on the line it is on.
import type { z } from "zod";
import { ConfigError, type ConfigIssue } from "./config-error.ts";
import { describeUnknownKey } from "./describe-unknown-key.ts";
import { humanErrorMap } from "./human-error-map.ts";

/** Finds the line of a path in the source (a key's own line for an unknown key); undefined when unknown. */
export type LineOf = (path: readonly PropertyKey[], at: "value" | "key") => number | undefined;

/** The parsed config, or a ConfigError listing every problem, the first line first. */
export function validateConfig<T>(schema: z.ZodType<T>, data: unknown, file: string, lineOf: LineOf): T {
  const result = schema.safeParse(data, { error: humanErrorMap, reportInput: true });
  if (result.success) return result.data;
  const unknown = result.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ path: [...issue.path, key], ...describeUnknownKey(schema, issue.path, key) }))
      : [],
  );
  // A misspelt key also leaves the field it meant missing; the typo is the one problem to report.
  const meant = new Set(
    unknown.flatMap(({ path, suggestion }) => (suggestion ? [formatPath([...path.slice(0, -1), suggestion])] : [])),
  );
  // ...and a rule that needs one of its lists ("needs at least one of") only says the same again.
  const typoIn = new Set(
    unknown.flatMap(({ path, suggestion }) => (suggestion ? [formatPath(path.slice(0, -1))] : [])),
  );
  const issues: ConfigIssue[] = unknown.map(({ path, message }) => ({
    line: lineOf(path, "key"),
    path: formatPath(path),
    message,
  }));
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") continue;
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    if (missing && meant.has(formatPath(issue.path))) continue;
    if (issue.code === "custom" && typoIn.has(formatPath(issue.path))) continue;
    issues.push({ line: lineOf(issue.path, "value"), path: formatPath(issue.path), message: issue.message });
  }
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  throw ConfigError.fromIssues(file, issues, { cause: result.error });
}

/** `targets[1].mode`; keys that are not plain words are quoted: `labels["app.kubernetes.io/name"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const step of path) {
    if (typeof step === "number") text += `[${step}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(String(step))) text += text === "" ? String(step) : `.${String(step)}`;
    else text += `[${JSON.stringify(String(step))}]`;
  }
  return text;
}
