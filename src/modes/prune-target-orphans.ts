// The app's prune of a target's orphans (a heal, a merged revert pull request):
// each orphan's setting (its first matching rule's, else the target's `prune`)
// decides, true ones go through planPrune's guards and pruneOrphans' re-read,
// never forced and with background propagation; the others are listed with
// their setting. Nothing is deleted for an orphan whose prune is preview or false,
// nor one that another target of the repository declares (read from the same tree).
import type { RepoConfig, TargetConfig } from "../config/schema.ts";
import type { SkippedDocument } from "../desired/extract-objects.ts";
import type { ResourceIndex } from "../live/discovery.ts";
import type { KubeClient } from "../live/kube-client.ts";
import type { ObjectRecord } from "../model/change-set.ts";
import type { KubeObject } from "../model/types.ts";
import { noOtherTargets } from "../plan/prune/other-targets.ts";
import { asksPrune, planTargetPrune } from "../plan/prune/plan-target-prune.ts";
import { pruneOrphans } from "../remediate/prune/prune-orphans.ts";
import { otherTargetsOf } from "../stages/scan/other-targets-of.ts";

/** One record per orphan: the deleted ones (or failed deletes) first, those already being deleted, then the skipped ones with why. */
export async function pruneTargetOrphans(params: {
  client: KubeClient;
  index: ResourceIndex;
  target: TargetConfig;
  /** The tree the target was rendered from, and its config: the other targets' objects are read from them. */
  repoDir: string;
  config: RepoConfig;
  /** The objects the target declares: an empty render never prunes, and what they use stays. */
  desired: KubeObject[];
  orphans: KubeObject[];
  /** Documents the render skipped: while there is one, nothing is pruned. */
  skippedDocuments: readonly SkippedDocument[];
}): Promise<ObjectRecord[]> {
  const { client, index, target } = params;
  const otherTargets = asksPrune(target, params.orphans)
    ? await otherTargetsOf({ repoDir: params.repoDir, config: params.config, target, index })
    : noOtherTargets;
  const plan = planTargetPrune({
    orphans: params.orphans,
    desired: params.desired,
    target,
    skippedDocuments: params.skippedDocuments,
    otherTargets,
  });
  const deleted = await pruneOrphans({
    client,
    index,
    deletions: plan.deletions,
    propagationPolicy: "Background",
    dryRun: false,
  });
  return [...deleted, ...plan.deleting, ...plan.skipped];
}
