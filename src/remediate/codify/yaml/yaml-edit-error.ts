// An edit the YAML of a file could not take without changing more than the
// drifted field: an unsupported layout, or a result that did not read back as
// intended. Its message names the file and document.
import { UndriftError } from "../../../model/undrift-error.ts";

/** A YAML file could not be edited as asked; the file is left as it was. */
export class YamlEditError extends UndriftError {
  override name = "YamlEditError";
  readonly permanent = true;
  /** The repository-relative file. */
  readonly file: string;

  constructor(message: string, options: { file: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.file = options.file;
  }
}
