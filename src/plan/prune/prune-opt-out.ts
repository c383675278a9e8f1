// The ways an object says "never prune me": undrift's own marker and the ones
// Flux and Argo CD users already put on objects, honoured so that moving to
// undrift does not lose a protection someone set. Labels and annotations both
// count (a label cannot carry Argo CD's `Prune=false`, so that form is only read
// from annotations in practice).
import type { KubeObject } from "../../model/types.ts";

const disabled = ["undrift.dev/prune", "kustomize.toolkit.fluxcd.io/prune"];
const argoSyncOptions = "argocd.argoproj.io/sync-options";

/** How the object opts out of pruning (`annotation undrift.dev/prune: disabled`), or undefined when it does not. */
export function pruneOptOut(object: KubeObject): string | undefined {
  const maps = [
    ["annotation", object.metadata.annotations],
    ["label", object.metadata.labels],
  ] as const;
  for (const [where, values] of maps) {
    for (const key of disabled) {
      if (values?.[key]?.trim() === "disabled") return `${where} ${key}: disabled`;
    }
    // Argo CD's sync options are a comma-separated list; Prune=confirm waits for a person in Argo CD, and undrift has no such step.
    const options = (values?.[argoSyncOptions] ?? "").split(",").map((o) => o.trim());
    const option = options.find((o) => o === "Prune=false" || o === "Prune=confirm");
    if (option) return `${where} ${argoSyncOptions}: ${option}`;
  }
  return undefined;
}
