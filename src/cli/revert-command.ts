// undrift revert --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--prune] [--force-prune]
//   [--propagation background|foreground|orphan] [--wait | --no-wait] [--dry-run] [--output text|json]

import { readRepoConfig } from "../config/load-config.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import type { PropagationPolicy } from "../live/delete-object.ts";
import type { WaitMode } from "../model/change-set.ts";
import { renderRevertText } from "../report/revert/render-revert-text.ts";
import { revertExitCode } from "../stages/revert/revert-exit-code.ts";
import { revertTarget } from "../stages/revert/revert-target.ts";
import { cliTarget } from "./cli-targets.ts";
import { clusterLabel } from "./cluster-label.ts";
import { revert, revertOutputs } from "./command-specs.ts";
import { UsageError } from "./errors.ts";
import { interruptibleRevert } from "./interruptible-revert.ts";
import { checkRepoFolder, parseTargetArgs } from "./parse-target-args.ts";
import { resolveTargets } from "./resolve-targets.ts";

const propagations: Record<string, PropagationPolicy> = {
  background: "Background",
  foreground: "Foreground",
  orphan: "Orphan",
};

/**
 * 0 when everything asked for was done, 1 when an object was skipped, refused or failed, 130 when
 * interrupted; errors throw (2).
 */
export async function revertCommand(argv: string[]): Promise<number> {
  const { values: args, ...target } = parseTargetArgs(argv, {
    options: revert.flags,
    outputs: revertOutputs,
    // A wrong flag is said before anything is looked up on disk.
    checkRepo: false,
  });
  const { output } = target;
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
  checkRepoFolder(target.repo);
  // No --all: revert writes to the cluster, one target at a time, named or the config's only one.
  const choice = await resolveTargets({ repoDir: target.repo, target: target.target });

  // Progress on a terminal's stderr; Ctrl-C stops it with the report of what was applied (exit 130).
  const kubeConfig = target.kubeConfig();
  // The target is resolved here, once; the stage takes it as it is.
  const config = choice.config ?? (await readRepoConfig(target.repo));
  const session = new ClusterSession(kubeConfig);
  const resolved = await cliTarget({ config, repoDir: target.repo, session: () => session, name: choice.names[0]! });
  const result = await interruptibleRevert({ output }, (hooks) =>
    revertTarget({
      repoDir: target.repo,
      config,
      target: resolved,
      session,
      prune: args.prune,
      forcePrune: args["force-prune"],
      dryRun: args["dry-run"],
      propagationPolicy,
      wait,
      ...hooks,
    }),
  );
  process.stdout.write(
    output === "json"
      ? `${JSON.stringify(result, null, 2)}\n`
      : renderRevertText(result, { color: target.color, cluster: clusterLabel(kubeConfig) }),
  );
  return revertExitCode(result);
}
