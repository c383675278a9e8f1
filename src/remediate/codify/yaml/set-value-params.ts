// What a value edit in a manifest file takes, whichever writer (YAML or JSON) the file needs.
import type { FieldPath } from "../../../drift/field-path.ts";

export interface SetYamlValueParams {
  /** Repository-relative name, for messages (and `.json` files, which are rewritten as JSON). */
  file: string;
  text: string;
  document: number;
  path: FieldPath;
  /** The new value; undefined removes the field (and a map or list it leaves empty). */
  value: unknown;
}
