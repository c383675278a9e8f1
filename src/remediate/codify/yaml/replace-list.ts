// A list replaced as a whole (an atomic list such as `args`), item by item:
// items both lists share keep their text (and comments); an item replaced by
// one other is edited in place, keeping its quoting; the rest are inserted,
// then removed, so the list is never empty on the way (which would remove it).
import { diffArrays } from "diff";
import type { Document } from "yaml";
import { isSeq } from "yaml";
import type { FieldPath } from "../../../drift/field-path.ts";
import { insertEntry } from "./insert-entry.ts";
import { locatePath } from "./locate-path.ts";
import { removeEntry } from "./remove-entry.ts";
import { YamlEditError } from "./yaml-edit-error.ts";
import type { Layout } from "./yaml-layout.ts";

type Json = unknown;

/** What replaceList needs from the editor that calls it. */
export interface ListEditor {
  file: string;
  quoteAll: boolean;
  /** Sets one value, as setYamlValue does (used for items edited in place). */
  set(text: string, path: FieldPath, value: Json): string;
  /** The edited document as `text` parses. */
  read(text: string): { doc: Document.Parsed; json: Json; layout: Layout };
}

/**
 * A list replaced as a whole (an atomic list such as `args`): items both lists share keep their text;
 * an item replaced by one other is edited in place; the rest are inserted, then removed.
 */
export function replaceList(params: {
  editor: ListEditor;
  text: string;
  path: FieldPath;
  current: Json[];
  value: Json[];
}): string {
  const { editor, text, path, current, value } = params;
  const parts = diffArrays(
    current.map((item) => JSON.stringify(item)),
    value.map((item) => JSON.stringify(item)),
  );
  let out = text;
  let cursor = 0;
  let source = 0;
  const removals: number[] = [];
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    const count = part.count ?? part.value.length;
    const next = parts[p + 1];
    if (!part.added && !part.removed) {
      cursor += count;
      source += count;
      continue;
    }
    if (
      next &&
      part.removed !== next.removed &&
      (next.added || next.removed) &&
      (next.count ?? next.value.length) === count
    ) {
      for (let j = 0; j < count; j++) out = editor.set(out, [...path, `i:${cursor + j}`], value[source + j]);
      cursor += count;
      source += count;
      p++;
      continue;
    }
    if (part.removed) {
      for (let j = 0; j < count; j++) removals.push(cursor + j);
      cursor += count;
      continue;
    }
    for (let j = 0; j < count; j++) {
      const state = editor.read(out);
      const list = locatePath(state.doc, state.json, path).reached;
      if (!isSeq(list)) throw new YamlEditError(`${editor.file}: expected a list`, { file: editor.file });
      out = insertEntry({
        file: editor.file,
        text: out,
        collection: list,
        value: value[source + j],
        before: cursor + j,
        layout: state.layout,
        quoteAll: editor.quoteAll,
      });
    }
    cursor += count;
    source += count;
  }
  for (const index of removals.reverse()) {
    const state = editor.read(out);
    const step = locatePath(state.doc, state.json, [...path, `i:${index}`]).steps.at(-1)!;
    out = removeEntry({ file: editor.file, text: out, parent: step.parent, index: step.index });
  }
  return out;
}
