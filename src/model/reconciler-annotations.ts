// What Flux's and Argo CD's per-object annotations say about an object, read
// as the tool that defined each reads it, so that an object its owners told
// their reconciler to leave alone is not drift to undrift either (DESIGN.md,
// "Targets discovered from Flux and Argo CD"). The engine, prune and every
// stage after them act on what these say; nothing here does I/O.
//
// Flux (fluxcd/pkg ssa, `utils.AnyInMetadata`): labels and annotations both,
// the value compared with strings.EqualFold.
// - `kustomize.toolkit.fluxcd.io/reconcile: disabled` and
//   `kustomize.toolkit.fluxcd.io/ssa: Ignore`: kustomize-controller's
//   exclusion selector. `shouldSkipApply` skips the object when the desired
//   object or the one in the cluster carries either, and its garbage
//   collection keeps it (kustomize-controller#484).
// - `kustomize.toolkit.fluxcd.io/ssa: IfNotPresent`, read from the desired
//   object only: applied when the object does not exist, never after.
// - `kustomize.toolkit.fluxcd.io/ssa: Merge`: the apply leaves fields that
//   other field managers set (the cleanup of kubectl's managed fields excludes
//   it), so a field a person added and Git does not set is theirs to keep.
// - `helm.toolkit.fluxcd.io/driftDetection: disabled`: helm-controller's
//   drift detection and correction skip the object (desired or live).
// Argo CD (gitops-engine): annotations only.
// - `argocd.argoproj.io/compare-options: IgnoreExtraneous` (a comma list, items
//   trimmed): an object Git does not declare does not count against the sync
//   status; undrift does not report it as an orphan, so it is never pruned.
// - `argocd.argoproj.io/ignore-differences-json-pointers` (argo-cd#29616, a
//   comma list of RFC 6901 pointers): those fields are ignored for this object,
//   on top of the target's ignoreDifferences. Argo CD applies them to the
//   sync only with RespectIgnoreDifferences=true; undrift never syncs, so for
//   its comparison they always hold. Read from both sides.
import type { KubeObject } from "./types.ts";

export const FLUX_RECONCILE = "kustomize.toolkit.fluxcd.io/reconcile";
export const FLUX_SSA = "kustomize.toolkit.fluxcd.io/ssa";
export const HELM_DRIFT_DETECTION = "helm.toolkit.fluxcd.io/driftDetection";
export const ARGO_COMPARE_OPTIONS = "argocd.argoproj.io/compare-options";
export const ARGO_IGNORE_POINTERS = "argocd.argoproj.io/ignore-differences-json-pointers";

/** Go's strings.EqualFold for these ASCII words: upper case too, so the long s (ſ) folds to s as Go folds it. */
export const equalFold = (a: string, b: string) =>
  a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();

/** fluxcd/pkg's AnyInMetadata for one key: `annotation KEY: VALUE` (or `label ...`) when the object carries it. */
export function fluxMetadata(object: KubeObject | undefined, key: string, value: string): string | undefined {
  for (const [where, values] of [
    ["label", object?.metadata.labels],
    ["annotation", object?.metadata.annotations],
  ] as const) {
    const found = values?.[key];
    if (found !== undefined && equalFold(found, value)) return `${where} ${key}: ${found}`;
  }
  return undefined;
}

const exclusions: Array<[string, string]> = [
  [FLUX_RECONCILE, "disabled"],
  [FLUX_SSA, "Ignore"],
  [HELM_DRIFT_DETECTION, "disabled"],
];

/**
 * Why a reconciler leaves the object alone (`annotation kustomize.toolkit.fluxcd.io/reconcile: disabled`), as
 * fluxcd/pkg's shouldSkipApply decides: an exclusion on the desired object or the live one, or `ssa:
 * IfNotPresent` on the desired object once a live one exists (a missing one is created, so it is drift).
 * Undefined when nothing says so. Such an object is never drift: not changed, not missing, not re-applied,
 * not pruned.
 */
export function leftAloneBy(desired: KubeObject | undefined, live: KubeObject | undefined): string | undefined {
  for (const object of [desired, live]) {
    for (const [key, value] of exclusions) {
      const found = fluxMetadata(object, key, value);
      if (found) return found;
    }
  }
  return live ? fluxMetadata(desired, FLUX_SSA, "IfNotPresent") : undefined;
}

/** `kustomize.toolkit.fluxcd.io/ssa: Merge` on the desired object: fields other managers added stay theirs. */
export function mergeBy(desired: KubeObject): string | undefined {
  return fluxMetadata(desired, FLUX_SSA, "Merge");
}

/** gitops-engine's HasAnnotationOption: the annotation's comma list holds `option`, items trimmed. */
function argoOption(object: KubeObject, key: string, option: string): boolean {
  const items = object.metadata.annotations?.[key]?.split(",") ?? [];
  return items.some((item) => item.trim() === option);
}

/** Whether an object Git does not declare says it does not count (`compare-options: IgnoreExtraneous`). */
export function ignoresExtraneous(live: KubeObject): string | undefined {
  return argoOption(live, ARGO_COMPARE_OPTIONS, "IgnoreExtraneous")
    ? `annotation ${ARGO_COMPARE_OPTIONS}: IgnoreExtraneous`
    : undefined;
}

// RFC 6901: "/" then tokens, where "~" only escapes as ~0 or ~1 (as the config's jsonPointers are checked).
const JSON_POINTER = /^(\/([^~]|~[01])*)+$/;

/** The JSON pointers the objects' `ignore-differences-json-pointers` annotations name, each once; others are skipped. */
export function annotatedIgnorePointers(...objects: Array<KubeObject | undefined>): string[] {
  const pointers = new Set<string>();
  for (const object of objects) {
    for (const item of object?.metadata.annotations?.[ARGO_IGNORE_POINTERS]?.split(",") ?? []) {
      const pointer = item.trim();
      if (JSON_POINTER.test(pointer)) pointers.add(pointer);
    }
  }
  return [...pointers];
}
