// Fields a person changed by hand belong to their kubectl (or console) manager,
// so an apply would neither remove a field they added nor, without force, take
// back a value they changed. As Flux does, ownership passes to the applier
// first: the people's entries leave managedFields and their fields join the
// applier's Apply entry. The apply that follows then removes what Git does not
// set and restores what Git does. Controllers' entries are left as they are,
// so their fields survive the apply.
import type { FieldsV1, ManagedFieldsEntry } from "../../model/types.ts";

export interface Takeover {
  /** The object's new managedFields. */
  managedFields: ManagedFieldsEntry[];
  /** The managers whose fields were taken, as `kubectl-set` or `kubectl (scale)`. */
  takenFrom: string[];
}

/** The managedFields after the takeover, or undefined when no person's manager owns anything. */
export function takeOverHumanFields(params: {
  entries: ManagedFieldsEntry[] | undefined;
  fieldManager: string;
  /** The apiVersion the applier applies in: its entry's when it has none yet. */
  apiVersion: string;
  isHuman: (manager: string) => boolean;
  /** The takeover's time, RFC 3339 to the second as the API server writes it. */
  time: string;
}): Takeover | undefined {
  const entries = params.entries ?? [];
  // Status is written by controllers through its own endpoint and never applied; a person's `kubectl scale` is taken.
  const human = (e: ManagedFieldsEntry) =>
    e.manager !== undefined && e.subresource !== "status" && params.isHuman(e.manager);
  const taken = entries.filter(human);
  if (taken.length === 0) return undefined;

  const applier = entries.find((e) => e.manager === params.fieldManager && e.operation === "Apply" && !e.subresource);
  // An Apply entry is keyed by its manager alone, so there is one per manager: the union goes into it.
  const fields = taken.reduce((all, e) => unionFields(all, e.fieldsV1 ?? {}), applier?.fieldsV1 ?? {});
  const merged: ManagedFieldsEntry = {
    manager: params.fieldManager,
    operation: "Apply",
    apiVersion: applier?.apiVersion ?? params.apiVersion,
    time: params.time,
    fieldsType: "FieldsV1",
    fieldsV1: fields,
  };
  const managedFields: ManagedFieldsEntry[] = [];
  let placed = false;
  for (const entry of entries) {
    if (entry === applier || human(entry)) {
      // The merged entry takes the place of the applier's, or of the first person's when the applier had none.
      if (!placed && (entry === applier || !applier)) {
        managedFields.push(merged);
        placed = true;
      }
      continue;
    }
    managedFields.push(entry);
  }
  const takenFrom = [...new Set(taken.map((e) => (e.subresource ? `${e.manager} (${e.subresource})` : e.manager!)))];
  return { managedFields, takenFrom };
}

/** The union of two fieldsV1 tries: every path either owns. */
export function unionFields(a: FieldsV1, b: FieldsV1): FieldsV1 {
  const out: FieldsV1 = { ...a };
  for (const [key, child] of Object.entries(b)) out[key] = key in out ? unionFields(out[key]!, child) : child;
  return out;
}
