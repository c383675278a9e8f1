// JSON manifests have no comments to keep: the document is set with the value
// and written again as JSON in the file's indentation and line breaks.
import { setPath } from "../../../drift/edit-object.ts";
import type { SetYamlValueParams } from "./set-value-params.ts";
import { lineBreakOf } from "./text-lines.ts";
import { YamlEditError } from "./yaml-edit-error.ts";

type Json = unknown;

export function setJsonValue(params: SetYamlValueParams): string {
  const { file, text, path, value } = params;
  let data: Json;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new YamlEditError(`${file}: not valid JSON: ${(error as Error).message}`, { file, cause: error });
  }
  setPath(data, path, value);
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  const br = lineBreakOf(text);
  const out = JSON.stringify(data, null, indent).replaceAll("\n", br);
  return /\n$/.test(text) ? out + br : out;
}
