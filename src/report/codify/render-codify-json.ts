// `undrift codify --output json`: what changed and what did not, for scripts;
// codify-json-schema.ts describes every field.
import type { CodifyResult } from "../../remediate/codify/codify-result.ts";
import { filesDiff } from "../../remediate/codify/files-diff.ts";
import { refJson } from "../render-json.ts";
import type { CodifyResultJson } from "./codify-json-schema.ts";

export function renderCodifyJson(result: CodifyResult, options: { dryRun: boolean }): string {
  const json: CodifyResultJson = {
    target: result.target,
    dryRun: options.dryRun,
    filesChanged: result.files.map((f) => f.file),
    // Codify's objects never carry an empty namespace, so refJson's undefined one leaves it out as before.
    codified: result.codified.map((c) => ({ ...refJson(c), status: c.status, file: c.file })),
    notCodified: result.notCodified.map((n) => ({ ...refJson(n), reason: n.reason })),
    problems: result.problems,
    ...(options.dryRun ? { diff: filesDiff(result.files) } : {}),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
