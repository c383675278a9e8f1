// The working data of kustomize planning: the target's kustomization and its
// patches, where each object is declared, and the route each drifted field takes.
import type { Pairing } from "../../drift/build-report.ts";
import type { FieldPath } from "../../drift/field-path.ts";
import type { DriftStatus, KubeObject } from "../../model/types.ts";
import type { CodifyContext } from "./codify-context.ts";
import type { FieldEdit } from "./drift-edits.ts";
import type { PatchDocument } from "./patch-documents.ts";
import type { Kustomization } from "./read-kustomization.ts";
import type { AssumedDefault } from "./strip-defaults.ts";

export interface KustomizeContext {
  context: CodifyContext;
  kustomization: Kustomization;
  patches: PatchDocument[];
  /** The patch file chosen for each object, so a second planning pass picks the same. */
  ownPatches: Map<string, string>;
}

export interface PlanItem {
  pairing: Pairing;
  status: DriftStatus;
}

/** images: or replicas: entry, an overlay patch that sets the field, the source document, or a patch of our own. */
export type Route = "image" | "replicas" | "patch" | "source" | "new-patch";

/** Where an object is declared: its document, when it can be read, and the name and namespace written there. */
export interface Declared {
  file: string;
  document: number;
  /** Path to the object in its document (a List item has one). */
  prefix?: FieldPath;
  item?: number;
  name: string;
  namespace?: string;
  /** The document lies in the target's folder and may be edited. */
  editable: boolean;
  /** Declared by a generator of a kustomization (configMapGenerator, secretGenerator). */
  generated: boolean;
}

/** A drifted object's edits and the route of each, before they become file operations. */
export interface Draft {
  item: PlanItem;
  object: KubeObject;
  declared: Declared;
  edits: FieldEdit[];
  routes: Map<FieldEdit, Route>;
  defaults: AssumedDefault[];
}
