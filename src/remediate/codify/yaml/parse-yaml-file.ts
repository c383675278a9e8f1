// A YAML file parsed for editing: every document with node ranges and source
// tokens (for the offsets of `-` indicators), read the way the renderers read it
// (as kubectl's YAML decoder reads it, `<<` merge keys, unique keys).
import { type Document, LineCounter, parseAllDocuments } from "yaml";
import { yamlToKubernetesJson } from "../../../desired/yaml-to-kubernetes-json.ts";
import { lineBreakOf } from "./text-lines.ts";
import { YamlEditError } from "./yaml-edit-error.ts";

export interface YamlFile {
  text: string;
  documents: Document.Parsed[];
  lineBreak: "\n" | "\r\n";
}

/** Parses `text`; throws YamlEditError `<file>:<line>: <reason>` when it is not valid YAML. */
export function parseYamlFile({ file, text }: { file: string; text: string }): YamlFile {
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, {
    lineCounter,
    version: "1.1",
    merge: true,
    uniqueKeys: true,
    keepSourceTokens: true,
  });
  const documents = "empty" in parsed ? [] : parsed;
  for (const doc of documents) {
    const problem = doc.errors[0];
    if (problem) {
      const line = lineCounter.linePos(problem.pos[0]).line;
      throw new YamlEditError(`${file}:${line}: ${problem.message.split("\n")[0]}`, { file, cause: problem });
    }
  }
  return { text, documents, lineBreak: lineBreakOf(text) };
}

/** The plain value of a document as kubectl reads it, aliases and merge keys resolved; null for an empty document. */
export function documentValue(doc: Document.Parsed): unknown {
  if (doc.contents === null) return null;
  return yamlToKubernetesJson({
    doc,
    keyLines: new WeakMap(),
    lineOf: () => 0,
    fail: (message) => {
      // The renderer read this file first and named its line; here it only must not pass unread.
      throw new YamlEditError(message, { file: "" });
    },
  });
}
