// A merged revert pull request applies only what its record approved and the
// new scan still finds exactly so, through the CLI's revert (planRevert +
// applyPlan, the plan cut to the approved objects); changed or new drift is
// held back, and objects the rules give another mode are not revert's.
import type { TargetConfig } from "../config/schema.ts";
import type { KubeClient } from "../live/kube-client.ts";
import { keyString, objectKey } from "../model/object-key.ts";
import { type ApprovedDrift, approvedDrift } from "../plan/approved-drift.ts";
import { modeShares } from "../plan/mode-shares.ts";
import { planRevert, type RevertPlan } from "../plan/revert/plan-revert.ts";
import { respectedIgnoreRules } from "../plan/revert/respect-ignored.ts";
import type { RevertRecord } from "../plan/revert/revert-record.ts";
import { applyPlan } from "../remediate/revert/apply-plan.ts";
import type { ScanResult } from "../stages/scan/scan-target.ts";

export async function applyApprovedDrift(params: {
  scan: ScanResult;
  /** The client of the session the scan ran on. */
  client: KubeClient;
  record: RevertRecord;
  target: TargetConfig;
  deadline: number;
}): Promise<{ drift: ApprovedDrift; plan: RevertPlan } & Awaited<ReturnType<typeof applyPlan>>> {
  const { scan, record, target } = params;
  const drift = approvedRevertDrift({ scan, record, target });
  const plan = planRevert({ desired: scan.desired, pairings: scan.pairings });
  const objects = plan.objects.filter(
    (p) =>
      (p.status === "drifted" || p.status === "missing") && drift.apply.has(keyString(objectKey(p.desired.object))),
  );
  const applied = await applyPlan({
    client: params.client,
    index: scan.index,
    objects,
    fieldManager: target.fieldManager,
    force: target.force,
    isHuman: (manager) => scan.policy.isHuman(manager),
    dryRun: false,
    wait: "dependencies",
    ignoreRules: respectedIgnoreRules(target),
    jq: scan.policy.jq,
    deadline: params.deadline,
  });
  return { drift, plan, ...applied };
}

/** What the record approved that the scan still finds so, among the objects the rules leave to revert. */
export function approvedRevertDrift(params: {
  scan: ScanResult;
  record: RevertRecord;
  target: TargetConfig;
}): ApprovedDrift {
  const { scan, record, target } = params;
  const share = modeShares(scan).find((s) => s.mode === "revert")?.scan ?? scan;
  return approvedDrift({ record, report: share.report, cluster: target.cluster });
}
