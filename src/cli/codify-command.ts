// undrift codify --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--dry-run] [--output text|json]
// Edits the files under DIR so Git declares what the cluster runs; --dry-run prints the diff instead.
// Exit codes: 0 when nothing is left (all drift codified, or none), 1 when something was not codified, 2 on error.
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { codifyTarget } from "../remediate/codify/codify-target.ts";
import { renderCodifyJson } from "../remediate/codify/render-codify-json.ts";
import { renderCodifyText } from "../remediate/codify/render-codify-text.ts";
import { writeFileChanges } from "../remediate/codify/write-file-changes.ts";
import { UsageError } from "./errors.ts";
import { parseCommandArgs } from "./parse-command-args.ts";

const outputs = ["text", "json"] as const;
type Output = (typeof outputs)[number];

export async function codifyCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {
    repo: { type: "string" },
    target: { type: "string" },
    kubeconfig: { type: "string" },
    context: { type: "string" },
    "dry-run": { type: "boolean", default: false },
    output: { type: "string", short: "o", default: "text" },
  });
  const output = args.output as Output;
  if (!outputs.includes(output))
    throw new UsageError(`--output: expected one of ${outputs.join(", ")}, got "${output}"`);
  if (!args.repo) throw new UsageError("--repo is required (the working tree of the GitOps repository)");
  if (!args.target) throw new UsageError("--target is required (a target name from .github/undrift.yml)");
  const dryRun = args["dry-run"] === true;
  const kubeConfig = loadKubeconfig({ kubeconfig: args.kubeconfig, context: args.context });
  const result = await codifyTarget({ repoDir: args.repo, targetName: args.target, kubeConfig });
  if (!dryRun) await writeFileChanges({ repoDir: args.repo, changes: result.files });
  process.stdout.write(output === "json" ? renderCodifyJson(result, { dryRun }) : renderCodifyText(result, { dryRun }));
  return result.notCodified.length + result.problems.length > 0 ? 1 : 0;
}
