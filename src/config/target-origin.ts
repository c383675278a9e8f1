// Where a target came from: written in `.github/undrift.yml`, or read from a
// reconciler's object (`discover:`), and for the latter what that object asks
// of the render beyond the folder: the overlays kustomize-controller puts on a
// Kustomization's path before it builds it, and the metadata it adds when it
// applies, both part of what Git declares through Flux.
import type { ReconcilerRef } from "../model/types.ts";

/** A configured target, or the reconciler object a discovered one follows (the report names it the same way). */
export type TargetOrigin = { from: "config" } | ReconcilerRef;

/** An image override of a Flux Kustomization (kustomize's `images` entry). */
export interface KustomizeImage {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** A patch of a Flux Kustomization (kustomize's `patches` entry): a strategic merge or JSON 6902 patch as text. */
export interface KustomizePatch {
  patch: string;
  target?: Record<string, string>;
}

/** A ConfigMap or Secret in the Kustomization's namespace whose data keys are post-build variables. */
export interface SubstituteReference {
  kind: "ConfigMap" | "Secret";
  name: string;
  /** A missing object is no error: it defines no variables. */
  optional: boolean;
}

/**
 * A Kustomization's `spec.postBuild`: references only, never values from the cluster (those are read at scan
 * time, live/read-post-build-variables.ts, and passed to the render).
 */
export interface PostBuild {
  /** The Kustomization as `namespace/name`: whose substituteFrom objects are read, and what its errors name. */
  kustomization: string;
  /** `spec.postBuild.substitute`: inline variables, over those of substituteFrom. */
  substitute: Record<string, string>;
  substituteFrom: SubstituteReference[];
  /** `substituteStrategy: Always`: substitute (defaults) even with no variable at all. */
  always: boolean;
}

/** What kustomize-controller does to a Kustomization's path before and after `kustomize build`. */
export interface FluxRender {
  targetNamespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  patches: KustomizePatch[];
  images: KustomizeImage[];
  components: string[];
  /** `spec.ignoreMissingComponents`: a component folder that does not exist is left out instead of failing. */
  ignoreMissingComponents: boolean;
  /** `spec.commonMetadata` and the labels kustomize-controller itself sets on every object it applies. */
  metadata: { labels: Record<string, string>; annotations: Record<string, string> };
  /** `spec.postBuild`, when set: variables substituted into each built object. */
  postBuild?: PostBuild;
}
