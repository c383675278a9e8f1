// Whether labels satisfy an equality-based selector, as the API server decides
// it for `?labelSelector=`: checked again on each object before it is deleted,
// so nothing the selector does not name can be pruned, whatever listed it.
import type { LabelRequirement } from "./parse-label-selector.ts";

export function matchesSelector(labels: Record<string, string> | undefined, requirements: LabelRequirement[]): boolean {
  return requirements.every((r) => {
    const value = labels?.[r.key];
    if (r.operator === "=") return value === r.value;
    if (r.operator === "!=") return value !== r.value;
    return r.operator === "exists" ? value !== undefined : value === undefined;
  });
}
