// A target's configuration turned into the engine's comparison policy.
import picomatch from "picomatch";
import type { TargetConfig } from "../config/schema.ts";
import type { ComparePolicy } from "./compare-object.ts";
import { checkIgnoreRules, type Jq } from "./ignore-rules.ts";
import { enabledNoiseFilters } from "./noise-filters.ts";

export function comparePolicy(target: TargetConfig, jq: Jq): ComparePolicy {
  checkIgnoreRules(target.ignoreDifferences, jq);
  const human = picomatch(target.humanManagers, { nocase: true });
  return {
    fieldManager: target.fieldManager,
    isHuman: (manager) => manager !== target.fieldManager && human(manager),
    noiseFilters: enabledNoiseFilters(target.noiseFilters),
    ignoreRules: target.ignoreDifferences,
    jq,
  };
}
