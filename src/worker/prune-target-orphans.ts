// The app's prune of a target's orphans (a heal, a merged revert pull request):
// each orphan's setting (its first matching rule's, else the target's `prune`)
// decides, true ones go through planPrune's guards and pruneOrphans' re-read,
// never forced and with background propagation; the others are listed with
// their setting. Nothing is deleted for an orphan whose prune is preview or false.
import type { TargetConfig } from "../config/schema.ts";
import type { ResourceIndex } from "../live/discovery.ts";
import type { KubeClient } from "../live/kube-client.ts";
import type { ObjectRecord } from "../model/change-set.ts";
import type { KubeObject } from "../model/types.ts";
import { planTargetPrune } from "../plan/prune/plan-target-prune.ts";
import { pruneOrphans } from "../remediate/prune/prune-orphans.ts";

/** One record per orphan: the deleted ones (or failed deletes) first, then the skipped ones with why. */
export async function pruneTargetOrphans(params: {
  client: KubeClient;
  index: ResourceIndex;
  target: TargetConfig;
  /** The objects the target declares: an empty render never prunes, and what they use stays. */
  desired: KubeObject[];
  orphans: KubeObject[];
}): Promise<ObjectRecord[]> {
  const { client, index, target } = params;
  const plan = planTargetPrune({ orphans: params.orphans, desired: params.desired, target });
  const deleted = await pruneOrphans({
    client,
    index,
    deletions: plan.deletions,
    propagationPolicy: "Background",
    dryRun: false,
  });
  return [...deleted, ...plan.skipped];
}
