// undrift revert --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--prune] [--force-prune]
//   [--propagation background|foreground|orphan] [--wait | --no-wait] [--dry-run] [--output text|json]
import type { PropagationPolicy } from "../live/delete-object.ts";
import { loadKubeconfig } from "../live/load-kubeconfig.ts";
import { renderRevertText } from "../remediate/revert/render-revert-text.ts";
import { revertExitCode } from "../remediate/revert/revert-exit-code.ts";
import { revertTarget } from "../remediate/revert/revert-target.ts";
import type { WaitMode } from "../remediate/revert/types.ts";
import { UsageError } from "./errors.ts";
import { parseCommandArgs } from "./parse-command-args.ts";

const outputs = ["text", "json"] as const;
const propagations: Record<string, PropagationPolicy> = {
  background: "Background",
  foreground: "Foreground",
  orphan: "Orphan",
};

/** 0 when everything asked for was done, 1 when an object was skipped, refused or failed; errors throw (2). */
export async function revertCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {
    repo: { type: "string" },
    target: { type: "string" },
    kubeconfig: { type: "string" },
    context: { type: "string" },
    prune: { type: "boolean", default: false },
    "force-prune": { type: "boolean", default: false },
    propagation: { type: "string", default: "background" },
    wait: { type: "boolean", default: false },
    "no-wait": { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    output: { type: "string", short: "o", default: "text" },
  });
  const output = args.output as (typeof outputs)[number];
  if (!outputs.includes(output))
    throw new UsageError(`--output: expected one of ${outputs.join(", ")}, got "${output}"`);
  if (!args.repo) throw new UsageError("--repo is required (the working tree of the GitOps repository)");
  if (!args.target) throw new UsageError("--target is required (a target name from .github/undrift.yml)");
  const propagationPolicy = propagations[args.propagation];
  if (!propagationPolicy) {
    throw new UsageError(
      `--propagation: expected one of ${Object.keys(propagations).join(", ")}, got "${args.propagation}"`,
    );
  }
  // --force-prune lifts guards of a prune; alone it would read as a request to prune, which must be explicit.
  if (args["force-prune"] && !args.prune) throw new UsageError("--force-prune lifts prune guards and needs --prune");
  if (args.wait && args["no-wait"]) throw new UsageError("--wait and --no-wait exclude each other");
  const wait: WaitMode = args.wait ? "all" : args["no-wait"] ? "none" : "dependencies";

  const kubeConfig = loadKubeconfig({ kubeconfig: args.kubeconfig, context: args.context });
  const result = await revertTarget({
    repoDir: args.repo,
    targetName: args.target,
    kubeConfig,
    prune: args.prune,
    forcePrune: args["force-prune"],
    dryRun: args["dry-run"],
    propagationPolicy,
    wait,
  });
  process.stdout.write(output === "json" ? `${JSON.stringify(result, null, 2)}\n` : renderRevertText(result));
  return revertExitCode(result);
}
