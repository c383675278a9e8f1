// The ways an object says "never prune me": undrift's own marker and the ones
// Flux and Argo CD users already put on objects, honoured so that moving to
// undrift does not lose a protection someone set. Each is judged as the tool
// that defined it judges it, and where undrift reads more, only ever towards
// keeping the object (a kept object can still be deleted by hand; a deleted one
// is gone):
// - `kustomize.toolkit.fluxcd.io/prune: disabled` (and undrift's own
//   `undrift.dev/prune: disabled`, modelled on it): fluxcd/pkg ssa's
//   `AnyInMetadata` (ssa/utils/utils.go) reads labels and annotations and
//   compares the value with `strings.EqualFold`, so `Disabled` counts. undrift
//   also trims surrounding spaces, which Flux does not.
// - `argocd.argoproj.io/sync-options: Prune=false`: gitops-engine's
//   `resource.HasAnnotationOption` (pkg/sync/resource) reads annotations only,
//   splits the value on commas, trims each item and compares it exactly. undrift
//   splits and trims the same way but compares without letter case and reads
//   labels too: `prune=False` is a person's clear wish to keep the object,
//   and deleting it on a spelling would lose data Argo CD users meant to keep.
//   `Delete=false` counts too: Argo CD keeps such an object when its
//   Application goes, and a prune is the same loss.
// - `kustomize.toolkit.fluxcd.io/reconcile: disabled` and `.../ssa: Ignore`:
//   kustomize-controller neither applies nor garbage-collects such an object
//   (model/reconciler-annotations.ts); read here as Flux reads them.
import { equalFold } from "../../model/reconciler-annotations.ts";
import type { KubeObject } from "../../model/types.ts";

const disabled: Array<[string, string]> = [
  ["undrift.dev/prune", "disabled"],
  ["kustomize.toolkit.fluxcd.io/prune", "disabled"],
  ["kustomize.toolkit.fluxcd.io/reconcile", "disabled"],
  ["kustomize.toolkit.fluxcd.io/ssa", "Ignore"],
];
const argoSyncOptions = "argocd.argoproj.io/sync-options";
// Prune=confirm waits for a person in Argo CD, and undrift has no such step.
const argoNoPrune = ["Prune=false", "Prune=confirm", "Delete=false", "Delete=confirm"];

/** How the object opts out of pruning (`annotation undrift.dev/prune: disabled`), or undefined when it does not. */
export function pruneOptOut(object: KubeObject): string | undefined {
  const maps = [
    ["annotation", object.metadata.annotations],
    ["label", object.metadata.labels],
  ] as const;
  for (const [where, values] of maps) {
    for (const [key, word] of disabled) {
      const value = values?.[key]?.trim();
      if (value !== undefined && equalFold(value, word)) return `${where} ${key}: ${value}`;
    }
    const options = (values?.[argoSyncOptions] ?? "").split(",").map((o) => o.trim());
    const option = options.find((o) => argoNoPrune.some((no) => equalFold(o, no)));
    if (option) return `${where} ${argoSyncOptions}: ${option}`;
  }
  return undefined;
}
