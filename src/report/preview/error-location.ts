// Where a render failed, spelled as editors and terminals take it.
import type { PreviewError } from "../../model/preview-report.ts";

/** `infra/kustomization.yaml:12`, `infra/kustomization.yaml`, or undefined when the error names no file. */
export function errorLocation(error: PreviewError): string | undefined {
  if (!error.file) return undefined;
  return error.line === undefined ? error.file : `${error.file}:${error.line}`;
}
