// `undrift codify --output json`: what changed and what did not, for scripts.
import type { CodifyResult } from "../../remediate/codify/codify-result.ts";
import { filesDiff } from "../../remediate/codify/files-diff.ts";

export function renderCodifyJson(result: CodifyResult, options: { dryRun: boolean }): string {
  const ref = (r: { apiVersion: string; kind: string; namespace?: string | undefined; name: string }) => ({
    apiVersion: r.apiVersion,
    kind: r.kind,
    ...(r.namespace ? { namespace: r.namespace } : {}),
    name: r.name,
  });
  const json = {
    target: result.target,
    dryRun: options.dryRun,
    filesChanged: result.files.map((f) => f.file),
    codified: result.codified.map((c) => ({ ...ref(c), status: c.status, file: c.file })),
    notCodified: result.notCodified.map((n) => ({ ...ref(n), reason: n.reason })),
    problems: result.problems,
    ...(options.dryRun ? { diff: filesDiff(result.files) } : {}),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
