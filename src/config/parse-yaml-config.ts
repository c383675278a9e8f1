// Shared by the repository config and the cluster registry: YAML text in, a
// validated config or a ConfigError naming file, line and field out.
import { type Document, isMap, isPair, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { z } from "zod";
import { ConfigError } from "./config-error.ts";
import { describeValue } from "./human-error-map.ts";
import { validateConfig } from "./validate-config.ts";
import { yamlLine } from "./yaml-line.ts";

/** The largest config file read: a config is a page of settings, never megabytes. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** The deepest nesting of maps and lists: the schema needs 6, and deeper input can exhaust the parser's stack. */
export const MAX_CONFIG_DEPTH = 64;

/**
 * Refuses a config file of `bytes` bytes over MAX_CONFIG_BYTES (a permanent ConfigError): the one size check of
 * every reader, the CLI's (before reading), the text parser's and the app's (on what GitHub sent).
 */
export function checkConfigSize(file: string, bytes: number): void {
  if (bytes <= MAX_CONFIG_BYTES) return;
  throw ConfigError.fromIssues(file, [{ path: "", message: `${bytes} bytes; the limit is ${MAX_CONFIG_BYTES} bytes` }]);
}

/**
 * Parses YAML `text` from `file` and validates it with `schema`; throws ConfigError.
 * `locate` may note in the valid config where its parts are written, by line.
 */
export function parseYamlConfig<T>(
  schema: z.ZodType<T>,
  text: string,
  file: string,
  locate?: (config: T, lineOf: (path: readonly PropertyKey[]) => number) => void,
): T {
  checkConfigSize(file, Buffer.byteLength(text));
  const counter = new LineCounter();
  let doc: Document;
  try {
    // Merge keys (`<<: *defaults`) are how people share settings between targets in one file.
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, merge: true });
  } catch (error) {
    // The parser recurses per level of nesting: thousands of `{` exhaust the stack before any depth check can run.
    if (!(error instanceof RangeError)) throw error;
    throw ConfigError.fromIssues(file, [{ path: "", message: tooDeep }], { cause: error });
  }
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error) => ({
      line: counter.linePos(error.pos[0]).line,
      path: "",
      message:
        error.code === "MULTIPLE_DOCS"
          ? "a second YAML document starts here; the config is one document (remove the `---` or split the file)"
          : humanYamlError(error.message),
    }));
    throw ConfigError.fromIssues(file, issues, { cause: doc.errors[0] });
  }
  const deep = deepestNode(doc.contents);
  if (deep) throw ConfigError.fromIssues(file, [{ line: lineOf(counter, deep), path: "", message: tooDeep }]);
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
    const message = humanYamlError(error instanceof Error ? error.message : String(error));
    throw ConfigError.fromIssues(file, [{ line: startLine, path: "", message }], { cause: error });
  }
  if (!isMap(doc.contents)) {
    const message = `expected a map of settings at the top level, got ${describeValue(data)}`;
    throw ConfigError.fromIssues(file, [{ line: startLine, path: "", message }]);
  }
  const config = validateConfig(schema, data, file, (path, at) => yamlLine(doc, counter, path, at));
  locate?.(config, (path) => yamlLine(doc, counter, path));
  return config;
}

const tooDeep = `nested more than ${MAX_CONFIG_DEPTH} maps or lists deep (the limit)`;

/** The first node nested deeper than the limit, walked without recursion. */
function deepestNode(root: unknown): Node | undefined {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: root, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_CONFIG_DEPTH) return node;
    for (const item of node.items) {
      stack.push({ node: isPair(item) ? item.value : item, depth: depth + 1 });
      if (isPair(item)) stack.push({ node: item.key, depth: depth + 1 });
    }
  }
  return undefined;
}

function lineOf(counter: LineCounter, node: Node): number | undefined {
  return node.range ? counter.linePos(node.range[0]).line : undefined;
}

/** The parser's message; a stack overflow it caught while composing means the nesting was too deep. */
function humanYamlError(message: string): string {
  return /Maximum call stack size exceeded/.test(message) ? tooDeep : firstLine(message);
}

function firstLine(message: string): string {
  return message.split("\n")[0]!.trim();
}
