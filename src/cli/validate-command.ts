// undrift validate --repo DIR [--target NAME] [--output text|json]
// The config and each target's render checked without a cluster, for a CI step
// before merge: what `kustomize build` and `helm template` would refuse, what the
// config loader refuses, and objects declared twice, each as one line naming the
// file, line and field. Exit 0 when all is valid, 2 when anything is not.
import { ConfigError, formatConfigIssue } from "../config/config-error.ts";
import { readRepoConfig } from "../config/load-config.ts";
import { pickTarget } from "../config/pick-target.ts";
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import type { SkippedDocument } from "../desired/extract-objects.ts";
import { finalizeDesired } from "../desired/finalize-desired.ts";
import { RenderError } from "../desired/render-error.ts";
import { type Renderer, renderTarget } from "../desired/render-target.ts";
import { oneLine } from "../model/one-line.ts";
import { UndriftError } from "../model/undrift-error.ts";
import { validate, validateOutputs } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { parseCommandArgs } from "./parse-command-args.ts";
import { checkRepoFolder } from "./parse-target-args.ts";

/** One thing wrong: where, when known, and the one line a person reads. */
export interface ValidateError {
  target?: string;
  file?: string;
  line?: number;
  field?: string;
  message: string;
}

export interface TargetValidation {
  name: string;
  valid: boolean;
  renderer?: Renderer;
  objects?: number;
  /** Documents that declare no object: valid, but while one is there the target never prunes. */
  skipped?: SkippedDocument[];
}

export interface ValidateResult {
  valid: boolean;
  file?: string;
  targets: TargetValidation[];
  errors: ValidateError[];
}

export async function validateCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, validate.flags);
  const output = args.output as (typeof validateOutputs)[number];
  if (!validateOutputs.includes(output)) {
    throw new UsageError(`--output: expected one of ${validateOutputs.join(", ")}, got "${args.output}"`);
  }
  if (!args.repo) throw new UsageError("--repo is required (the working tree of the GitOps repository)");
  checkRepoFolder(args.repo);
  const result = await validateRepo({ repoDir: args.repo, ...(args.target ? { target: args.target } : {}) });
  // Errors on stderr, one a line, whatever the output, as every command says its errors.
  for (const error of result.errors) process.stderr.write(`${errorLine(error)}\n`);
  process.stdout.write(output === "json" ? `${JSON.stringify(result, null, 2)}\n` : text(result));
  return result.valid ? 0 : 2;
}

export async function validateRepo(params: { repoDir: string; target?: string }): Promise<ValidateResult> {
  let config: RepoConfig;
  try {
    config = await readRepoConfig(params.repoDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { valid: false, file: error.file, targets: [], errors: configErrors(error) };
  }
  // An unknown --target is a usage error, named with the targets there are (exit 2, like the others).
  const targets = params.target ? [pickTarget(config, params.target)] : config.targets;
  const results = [];
  const errors: ValidateError[] = [];
  for (const target of targets) {
    const found = await validateTarget(params.repoDir, target);
    results.push(found.target);
    errors.push(...found.errors);
  }
  return { valid: errors.length === 0, targets: results, errors };
}

/** Every issue the loader found, not only the first: CI should list all of them in one run. */
function configErrors(error: ConfigError): ValidateError[] {
  if (error.issues.length === 0) return [{ file: error.file, message: oneLine(error.message, { fold: "breaks" }) }];
  return error.issues.map((issue) => ({
    file: error.file,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.path ? { field: issue.path } : {}),
    message: oneLine(formatConfigIssue(error.file, issue), { fold: "breaks" }),
  }));
}

async function validateTarget(
  repoDir: string,
  target: TargetConfig,
): Promise<{ target: TargetValidation; errors: ValidateError[] }> {
  try {
    const rendered = await renderTarget({ repoDir, target });
    // Scopes are the cluster's to tell; calling every kind namespaced finds every duplicate a cluster
    // would also find among namespaced objects and cluster-scoped ones alike, and invents none.
    finalizeDesired({ objects: rendered.objects, namespace: target.namespace, scopeOf: () => "Namespaced" });
    return {
      target: {
        name: target.name,
        valid: true,
        renderer: rendered.renderer,
        objects: rendered.objects.length,
        ...(rendered.skipped.length > 0 ? { skipped: rendered.skipped } : {}),
      },
      errors: [],
    };
  } catch (error) {
    // A mistake in the repository (or a missing tool) is this target's answer; anything else is a bug, thrown.
    if (!(error instanceof UndriftError && error.permanent)) throw error;
    const message = oneLine(error.message, { fold: "breaks" });
    const where = error instanceof RenderError ? error : undefined;
    return {
      target: { name: target.name, valid: false },
      errors: [
        {
          target: target.name,
          ...(where?.file ? { file: where.file } : {}),
          ...(where?.line ? { line: where.line } : {}),
          message,
        },
      ],
    };
  }
}

/** `file:line: field: why` as the loader and renderers word it, with the target when the text does not name it. */
function errorLine(error: ValidateError): string {
  if (!error.target || error.message.includes(`"${error.target}"`)) return error.message;
  return `${error.message} (target ${error.target})`;
}

function text(result: ValidateResult): string {
  if (result.targets.length === 0) return "";
  const lines = result.targets.map((t) => {
    if (!t.valid) return `${t.name}: not valid`;
    const skipped = t.skipped?.length
      ? `; ${t.skipped.length} document${t.skipped.length === 1 ? "" : "s"} declare no object (${t.skipped[0]!.file}#${t.skipped[0]!.document}: ${t.skipped[0]!.reason}), so it never prunes`
      : "";
    return oneLine(`${t.name}: valid (${t.renderer}, ${t.objects} object${t.objects === 1 ? "" : "s"}${skipped})`);
  });
  return `${lines.join("\n")}\n`;
}
