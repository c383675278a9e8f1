// One document's value from a repository file, for planning where an edit goes.

import { documentValue, parseYamlFile } from "./yaml/parse-yaml-file.ts";
import { YamlEditError } from "./yaml/yaml-edit-error.ts";

/** The value of document `document` of `text`, or a reason it cannot be read. */
export function readDocument(params: {
  file: string;
  text: string;
  document: number;
}): { value: unknown } | { reason: string } {
  try {
    const doc = parseYamlFile({ file: params.file, text: params.text }).documents[params.document];
    if (!doc) return { reason: `${params.file} has no document ${params.document}` };
    return { value: documentValue(doc) };
  } catch (error) {
    if (error instanceof YamlEditError) return { reason: error.message };
    throw error;
  }
}
