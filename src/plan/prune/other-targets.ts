// What the repository's other targets declare, as a prune needs to know it: an
// object that any target declares is no orphan of the repository, even when it
// carries this target's tracking label (selectors overlap: a `team=x` selector
// on one target matches another's objects). A target whose render failed or
// skipped a document declares objects nobody can see, so while there is one,
// nothing is pruned: an unknown is never a reason to delete.
import { keyString, objectKey } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";

export interface OtherTargets {
  /** The key (`keyString`) of each object another target declares, with the names of the targets that declare it. */
  declared: ReadonlyMap<string, readonly string[]>;
  /** Other targets whose objects are not known (the render failed or skipped a document), each with why. */
  unknown: readonly { target: string; reason: string }[];
}

/** A repository with one target: nothing else declares anything. */
export const noOtherTargets: OtherTargets = { declared: new Map(), unknown: [] };

/** The other targets that declare `object`, in the config's order; empty when none does. */
export function declaredBy(others: OtherTargets, object: KubeObject): readonly string[] {
  return others.declared.get(keyString(objectKey(object))) ?? [];
}

/** Why an orphan another target declares stays: `target web declares it`. */
export function declaredReason(targets: readonly string[]): string {
  const [first, ...rest] = targets;
  return rest.length === 0 ? `target ${first} declares it` : `targets ${targets.join(", ")} declare it`;
}

/** Why no orphan is pruned while another target's objects are unknown, naming the first such target. */
export function unknownReason(unknown: OtherTargets["unknown"]): string {
  const [first] = unknown;
  const more = unknown.length > 1 ? ` and ${unknown.length - 1} more target${unknown.length > 2 ? "s" : ""}` : "";
  return `target ${first?.target}${more} could not be rendered (${first?.reason}), so whether it declares this object is unknown; nothing is pruned until it renders`;
}
