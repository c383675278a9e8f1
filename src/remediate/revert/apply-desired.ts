// One drifted or missing object applied by server-side apply, after the fields
// people changed by hand have passed to the applier; or the dry-run twin of
// both steps, which yields the record the real run would.

import { setTimeout as sleep } from "node:timers/promises";
import type { IgnoreRule, Jq } from "../../drift/ignore-rules.ts";
import { redactObjectValues } from "../../drift/mask.ts";
import { applyObject } from "../../live/apply-object.ts";
import type { ApiResource } from "../../live/discovery.ts";
import { getObject } from "../../live/get-object.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { patchManagedFields } from "../../live/patch-managed-fields.ts";
import { applyAction, type ObjectRecord } from "../../model/change-set.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject } from "../../model/types.ts";
import { judgedChange } from "../../plan/revert/changed-nothing-judged.ts";
import type { PlannedObject } from "../../plan/revert/plan-revert.ts";
import { respectIgnored } from "../../plan/revert/respect-ignored.ts";
import { type Takeover, takeOverHumanFields } from "../../plan/revert/take-over-human-fields.ts";
import { isApplyConflict, parseApplyConflicts } from "./parse-apply-conflicts.ts";
import { asApiError } from "./revert-error.ts";

/** Tries at the takeover before giving up on an object its controllers keep writing: 4 to 8 s of backoff. */
export const takeoverTries = 12;

/** The wait before try `attempt + 1`: 50 ms doubling to 1 s, each drawn at random from its upper half so that
 * the tries do not fall into step with a controller that writes at a steady pace. */
function takeoverBackoffMs(attempt: number): number {
  const ceiling = Math.min(1000, 50 * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export interface AppliedObject {
  record: ObjectRecord;
  /** The object as the apply left it (or would leave it, in a dry run); absent when it failed. */
  applied?: KubeObject;
}

export interface ApplyDesiredParams {
  client: KubeClient;
  resource: ApiResource;
  planned: PlannedObject;
  fieldManager: string;
  force: boolean;
  isHuman: (manager: string) => boolean;
  dryRun: boolean;
  /** RFC 3339 time for the takeover's managedFields entry. */
  time: string;
  /** ignoreDifferences rules whose fields keep their live values (none when the target opts out). */
  ignoreRules: IgnoreRule[] | undefined;
  jq: Jq;
}

/** Why a step refused the object, and what the record says beside it. */
interface Refused {
  refused: string;
  extra?: Partial<ObjectRecord>;
}

export async function applyDesired(params: ApplyDesiredParams): Promise<AppliedObject> {
  const { planned, fieldManager } = params;
  let object = planned.desired.object;
  const record: ObjectRecord = {
    ...refOf(object),
    action: planned.status === "missing" ? applyAction.missing : applyAction.drifted,
    ...(planned.changes.length > 0 ? { changes: planned.changes } : {}),
  };
  const fail = ({ refused, extra }: Refused): AppliedObject => ({
    record: {
      ...record,
      ...extra,
      action: "failed",
      reason: redactObjectValues(refused, object, planned.desired.sensitive),
    },
  });

  // 1. Fields people changed by hand pass to the applier, so the apply removes or restores them.
  const taken = await takeOverHandFields(params);
  if ("refused" in taken) return fail(taken);
  const { live, takeover } = taken;
  if (taken.takenFrom) record.takenFrom = taken.takenFrom;

  // 2. Fields ignoreDifferences exempts keep their live values (the takeover may have made them undrift's).
  if (live) {
    const respected = respectIgnored({
      desired: object,
      live,
      managedFields: takeover ? takeover.managedFields : live.metadata.managedFields,
      fieldManager,
      rules: params.ignoreRules,
      jq: params.jq,
    });
    object = respected.object;
    if (respected.kept.length > 0) record.reason = `kept live ${respected.kept.join(", ")} (ignoreDifferences)`;
  }

  // 3. The apply itself, with the target's force.
  const applied = await applyForced(params, object, takeover !== undefined);
  return "refused" in applied ? fail(applied) : { record, applied: applied.object };
}

/**
 * Step 1: the takeover of hand-made fields. The patch holds only if the object is as it was read. A write since
 * then to its status, or to an annotation or label only controllers own (a Deployment's controller writes both
 * through the rollout a hand edit starts), changes nothing the revert judged, so the takeover is made again from
 * a fresh read. A rollout's controller writes several times a second for as long as pods take to become ready,
 * and each try loses if one lands between its read and its patch, so the tries back off and go on for seconds,
 * not for a fixed few (three in a row lost once in a full CI run). Any other write since the scan's read is
 * refused: no scan has judged it.
 */
async function takeOverHandFields(
  params: ApplyDesiredParams,
): Promise<{ live: KubeObject | undefined; takeover: Takeover | undefined; takenFrom?: string[] } | Refused> {
  const { client, resource, planned, fieldManager, dryRun } = params;
  const object = planned.desired.object;
  const judged = { desired: object, fieldManager, isHuman: params.isHuman };
  let live = planned.live;
  let takeover: Takeover | undefined;
  // The record names whom the last try took fields from, whatever became of it.
  let takenFrom: string[] | undefined;
  const refuse = (refused: string): Refused => ({ refused, ...(takenFrom ? { extra: { takenFrom } } : {}) });
  for (let attempt = 1; live; attempt++) {
    takeover = takeOverHumanFields({
      entries: live.metadata.managedFields,
      fieldManager,
      apiVersion: object.apiVersion,
      isHuman: params.isHuman,
      time: params.time,
    });
    if (!takeover) break;
    takenFrom = takeover.takenFrom;
    try {
      const { managedFields } = takeover;
      await patchManagedFields({ client, resource, object: live, managedFields, fieldManager, dryRun });
      break;
    } catch (caught) {
      const error = asApiError(object, "taking over hand-made fields failed", caught);
      if (error.status !== 409) return refuse(`taking over hand-made fields refused: ${error.refusal}`);
      if (attempt === takeoverTries)
        return refuse(
          `still being written by its controllers after ${takeoverTries} tries to take it over, so not applied; run revert again`,
        );
      await sleep(takeoverBackoffMs(attempt));
      let fresh: KubeObject | undefined;
      try {
        fresh = await getObject({ client, resource, object: live });
      } catch (again) {
        return refuse(
          `changed since the scan, and reading it again failed: ${asApiError(object, "read", again).refusal}`,
        );
      }
      if (!fresh || !planned.live)
        return refuse("changed since the scan, so not applied; run revert again to judge it anew");
      // Against the scan's read, not the last try's: writes that each changed nothing judged add up to none.
      const changed = judgedChange(planned.live, fresh, judged);
      if (changed !== undefined)
        return refuse(`changed since the scan (${changed}), so not applied; run revert again to judge it anew`);
      live = fresh;
    }
  }
  return { live, takeover, ...(takenFrom ? { takenFrom } : {}) };
}

/** Step 3: the server-side apply, and what a conflict says of the fields' owners. */
async function applyForced(
  params: ApplyDesiredParams,
  object: KubeObject,
  tookOver: boolean,
): Promise<{ object: KubeObject } | Refused> {
  const { client, resource, fieldManager, dryRun } = params;
  const apply = async (force: boolean) => ({
    object: await applyObject({ client, resource, object, fieldManager, force, dryRun }),
  });
  try {
    return await apply(params.force);
  } catch (caught) {
    const error = asApiError(object, "apply failed", caught);
    const refused = `apply refused: ${error.refusal}`;
    if (error.status !== 409 || !isApplyConflict(error.message)) return { refused };
    let conflicts = parseApplyConflicts(error.message);
    // A dry run cannot persist the takeover, so the people's fields still conflict here; the real
    // run owns them by the time it applies. Only the other managers' conflicts are the real run's.
    if (dryRun && tookOver) {
      conflicts = conflicts.filter((c) => c.subresource === "status" || !params.isHuman(c.manager));
      if (conflicts.length === 0) {
        try {
          return await apply(true);
        } catch (retry) {
          return { refused: `apply refused: ${asApiError(object, "apply failed", retry).message}` };
        }
      }
    }
    if (conflicts.length === 0) return { refused };
    const owners = [...new Set(conflicts.map((c) => `"${c.manager}"`))].join(", ");
    const fields = conflicts.length === 1 ? "a field" : `${conflicts.length} fields`;
    return {
      refused: `conflict: ${fields} owned by ${owners}; force: true in the target takes them`,
      extra: { conflicts },
    };
  }
}
