// Multi-document YAML (and JSON, which is YAML) to plain values, with the
// strictness kubectl users expect: duplicate keys and other warnings fail
// the file, naming its line.
import { LineCounter, parseAllDocuments, type YAMLError } from "yaml";
import { RenderError } from "./render-error.ts";

/** One YAML document of a file: its value, or `null` when it is empty (only comments or nothing). */
export interface ParsedDocument {
  index: number;
  value: unknown;
}

/** Parses every document of `text`; throws RenderError `<file>:<line>: <yaml's message>` on the first problem. */
export function parseManifests({ file, text }: { file: string; text: string }): ParsedDocument[] {
  const lineCounter = new LineCounter();
  // YAML 1.2 core schema, as kustomize and Flux read it; `<<` merge keys as go-yaml accepts them.
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const fail = (error: YAMLError | Error, offset: number): never => {
    const line = lineCounter.linePos(offset).line;
    const reason = error.message.split("\n")[0]?.trim() || error.name;
    throw new RenderError(`${file}:${line}: ${reason}`, { file, line, cause: error });
  };
  if ("empty" in docs) {
    const problem = docs.errors[0] ?? docs.warnings[0];
    if (problem) fail(problem, problem.pos[0]);
    return [];
  }
  return docs.map((doc, index) => {
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) fail(problem, problem.pos[0]);
    if (doc.contents === null) return { index, value: null };
    try {
      return { index, value: doc.toJS({ maxAliasCount: 100 }) };
    } catch (error) {
      // toJS throws on alias bombs and the like; point at the document's start.
      return fail(error as Error, doc.range[0]);
    }
  });
}
