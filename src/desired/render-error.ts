// The one error a renderer throws: the target cannot be turned into objects.
// Its message starts with the repository file (and line, when known) to fix.
import { UndriftError } from "../model/undrift-error.ts";

/** Rendering a target failed: invalid YAML, a broken kustomization or chart, a refused remote base. */
export class RenderError extends UndriftError {
  override name = "RenderError";
  readonly permanent = true;
  /** The repository-relative file at fault, when one is known. */
  readonly file: string | undefined;
  /** Its 1-based line, when known. */
  readonly line: number | undefined;

  constructor(message: string, options: { file?: string; line?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.file = options.file;
    this.line = options.line;
  }
}
