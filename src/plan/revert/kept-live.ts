// Which fields a revert will keep at their live values, per drifted object,
// known before it runs: the revert pull request says so, as `revert --dry-run`
// and the merge's record do. The same two steps as the apply (apply-desired.ts):
// the people's fields pass to the applier, then respectIgnored decides.
import type { TargetConfig } from "../../config/schema.ts";
import type { Pairing } from "../../drift/build-report.ts";
import type { ComparePolicy } from "../../drift/compare-object.ts";
import { keyString, objectKey } from "../../model/object-key.ts";
import { respectedIgnoreRules, respectIgnored } from "./respect-ignored.ts";
import { takeOverHumanFields } from "./take-over-human-fields.ts";

// The takeover's entry time does not change which fields are kept; a fixed one keeps this pure.
const TIME = "1970-01-01T00:00:00Z";

/** JSON pointers kept live, by `keyString(objectKey(object))`; objects that keep none are absent. */
export function keptLive(scan: {
  target: TargetConfig;
  pairings: Pairing[];
  policy: Pick<ComparePolicy, "fieldManager" | "isHuman" | "jq">;
}): Map<string, string[]> {
  const { fieldManager, isHuman, jq } = scan.policy;
  const rules = respectedIgnoreRules(scan.target);
  const kept = new Map<string, string[]>();
  if (!rules) return kept;
  for (const { desired, live, comparison } of scan.pairings) {
    if (!desired || !live || !comparison || comparison.changes.length === 0) continue;
    const object = desired.object;
    const takeover = takeOverHumanFields({
      entries: live.metadata.managedFields,
      fieldManager,
      apiVersion: object.apiVersion,
      isHuman,
      time: TIME,
    });
    const managedFields = takeover ? takeover.managedFields : live.metadata.managedFields;
    const respected = respectIgnored({ desired: object, live, managedFields, fieldManager, rules, jq });
    if (respected.kept.length > 0) kept.set(keyString(objectKey(object)), respected.kept);
  }
  return kept;
}
