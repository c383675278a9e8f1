// undrift codify --repo DIR --target NAME [--kubeconfig FILE] [--context NAME] [--dry-run] [--allow-dirty]
//   [--output text|json]
// Edits the files under DIR so Git declares what the cluster runs; --dry-run prints the diff instead.
// Refuses uncommitted work in the target's folder unless --allow-dirty (a dry run writes nothing, so it may).
// Exit codes: 0 when nothing is left (all drift codified, or none), 1 when something was not codified, 2 on error.

import type { KubeConfig } from "@kubernetes/client-node";
import { readRepoConfig } from "../config/load-config.ts";
import { ClusterSession } from "../live/cluster-session.ts";
import { writeFileChanges } from "../remediate/codify/write-file-changes.ts";
import { renderCodifyJson } from "../report/codify/render-codify-json.ts";
import { renderCodifyText } from "../report/codify/render-codify-text.ts";
import { codifyTarget } from "../stages/codify/codify-target.ts";
import { checkCleanTree } from "./check-clean-tree.ts";
import { cliTarget } from "./cli-targets.ts";
import { clusterLabel } from "./cluster-label.ts";
import { codify, codifyOutputs } from "./command-specs.ts";
import { parseTargetArgs } from "./parse-target-args.ts";
import { resolveTargets } from "./resolve-targets.ts";

export async function codifyCommand(argv: string[]): Promise<number> {
  const args = parseTargetArgs(argv, {
    options: codify.flags,
    outputs: codifyOutputs,
  });
  const { output } = args;
  const dryRun = args.values["dry-run"] === true;
  // No --all: codify writes files, and one target's edits are what a reviewer reads at once.
  const choice = await resolveTargets({ repoDir: args.repo, target: args.target });
  // The target is resolved here, once; the stage takes it as it is.
  const config = choice.config ?? (await readRepoConfig(args.repo));
  let opened: { kubeConfig: KubeConfig; session: ClusterSession } | undefined;
  const open = () => {
    if (!opened) {
      const kubeConfig = args.kubeConfig();
      opened = { kubeConfig, session: new ClusterSession(kubeConfig) };
    }
    return opened;
  };
  // A configured target is found without the cluster; a discovered one (discover:) asks it for its reconcilers' objects.
  const target = await cliTarget({ config, repoDir: args.repo, session: () => open().session, name: choice.names[0]! });
  // Before the cluster is asked for the target's objects: a refusal should cost nothing.
  if (!dryRun && args.values["allow-dirty"] !== true) {
    await checkCleanTree({ repoDir: args.repo, targetPath: target.path });
  }
  const { kubeConfig, session } = open();
  const result = await codifyTarget({ repoDir: args.repo, config, target, session });
  if (!dryRun) await writeFileChanges({ repoDir: args.repo, changes: result.files });
  process.stdout.write(
    output === "json"
      ? renderCodifyJson(result, { dryRun })
      : renderCodifyText(result, { dryRun, color: args.color, cluster: clusterLabel(kubeConfig) }),
  );
  return result.notCodified.length + result.problems.length > 0 ? 1 : 0;
}
