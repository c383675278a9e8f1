// Removes one object's document from a multi-document file: from its `---`
// (or its first line) to the end of its content and trailing comments. What
// stands before it (a file's header comment, the previous document) stays.
import { isScalar, type Node } from "yaml";
import { documentValue, parseYamlFile } from "./parse-yaml-file.ts";
import { setYamlValue } from "./set-yaml-value.ts";
import { YamlEditError } from "./yaml-edit-error.ts";

/**
 * The text without document `document` (or without item `item` of the List it holds); undefined when
 * no object would be left in the file, so the file itself goes.
 */
export function removeYamlDocument(params: {
  file: string;
  text: string;
  document: number;
  item?: number;
}): string | undefined {
  const { file, text, document, item } = params;
  if (/\.json$/i.test(file)) return undefined;
  const parsed = parseYamlFile({ file, text });
  const doc = parsed.documents[document];
  if (!doc) throw new YamlEditError(`${file}: has no document ${document}`, { file });
  const value = documentValue(doc) as { items?: unknown[] } | null;
  if (item !== undefined && (value?.items?.length ?? 0) > 1) {
    return setYamlValue({ file, text, document, path: ["f:items", `i:${item}`], value: undefined });
  }
  const out = text.slice(0, doc.range[0]) + text.slice(doc.range[2]);
  const rest = parseYamlFile({ file, text: out }).documents;
  const empty = rest.every((d) => {
    const contents = d.contents as Node | null;
    return contents === null || (isScalar(contents) && contents.value === null);
  });
  return empty ? undefined : out;
}
