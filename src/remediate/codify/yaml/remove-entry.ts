// Removes one key or item: its whole lines in block style (comment lines above
// and inside it stay, a comment beside its value goes with it), its text and
// one separator in flow style.
import { isMap, type Node, type YAMLMap, type YAMLSeq } from "yaml";
import { commentLinesIn } from "./comment-lines.ts";
import { atLineStart, lineStart, nextLineStart } from "./text-lines.ts";
import { YamlEditError } from "./yaml-edit-error.ts";
import { contentEnd, entryStart } from "./yaml-layout.ts";

export function removeEntry(params: { file: string; text: string; parent: YAMLMap | YAMLSeq; index: number }): string {
  const { file, text, parent, index } = params;
  const entry = parent.items[index] as Node;
  const count = parent.items.length;
  const start = entryStart(parent as Node, index);
  if (start === undefined) throw new YamlEditError(`${file}: cannot find where an entry starts`, { file });
  if (parent.flow) {
    if (count === 1) return text.slice(0, start) + text.slice(contentEnd(text, entry));
    if (index < count - 1) return text.slice(0, start) + text.slice(entryStart(parent as Node, index + 1));
    return text.slice(0, contentEnd(text, parent.items[index - 1] as Node)) + text.slice(contentEnd(text, entry));
  }
  const end = nextLineStart(text, contentEnd(text, entry));
  if (atLineStart(text, start)) {
    const from = lineStart(text, start);
    return text.slice(0, from) + commentLinesIn(text, from, end) + text.slice(end);
  }
  // The entry shares its line with what opens it (`- name: a`, `- - a`): the next entry moves up into its place.
  if (index < count - 1) return text.slice(0, start) + text.slice(entryStart(parent as Node, index + 1));
  const what = isMap(parent) ? "the last key of a map" : "the last item of a list";
  throw new YamlEditError(`${file}: cannot remove ${what} that shares its line with its parent`, { file });
}
