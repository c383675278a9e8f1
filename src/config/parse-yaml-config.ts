// Shared by the repository config and the cluster registry: YAML text in, a
// validated config or a ConfigError naming file, line and field out.
import { isMap, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "./config-error.ts";
import { describeValue } from "./human-error-map.ts";
import { validateConfig } from "./validate-config.ts";
import { yamlLine } from "./yaml-line.ts";

/** Parses YAML `text` from `file` and validates it with `schema`; throws ConfigError. */
export function parseYamlConfig<T>(schema: z.ZodType<T>, text: string, file: string): T {
  const counter = new LineCounter();
  // Merge keys (`<<: *defaults`) are how people share settings between targets in one file.
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, merge: true });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error) => ({
      line: counter.linePos(error.pos[0]).line,
      path: "",
      message: firstLine(error.message),
    }));
    throw ConfigError.fromIssues(file, issues, { cause: doc.errors[0] });
  }
  if (doc.contents === null) {
    throw ConfigError.fromIssues(file, [
      { line: 1, path: "", message: "the file is empty; expected a map of settings" },
    ]);
  }
  const startLine = yamlLine(doc, counter, []);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    // Unresolved aliases and alias bombs only show up when the document is built.
    const message = firstLine(error instanceof Error ? error.message : String(error));
    throw ConfigError.fromIssues(file, [{ line: startLine, path: "", message }], { cause: error });
  }
  if (!isMap(doc.contents)) {
    const message = `expected a map of settings at the top level, got ${describeValue(data)}`;
    throw ConfigError.fromIssues(file, [{ line: startLine, path: "", message }]);
  }
  return validateConfig(schema, data, file, (path, at) => yamlLine(doc, counter, path, at));
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}
