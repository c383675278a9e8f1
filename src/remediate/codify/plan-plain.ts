// Where a plain target's drift goes: the object's own document. Missing
// objects lose their document; orphans get a new file in the target's folder.

import type { Pairing } from "../../drift/build-report.ts";
import { groupOf } from "../../model/object-key.ts";
import type { DriftStatus } from "../../model/types.ts";
import { type CodifyContext, isTaken } from "./codify-context.ts";
import { driftEdits } from "./drift-edits.ts";
import { manifestText } from "./manifest-text.ts";
import { newFileName } from "./new-file-name.ts";
import { objectInDocument } from "./object-in-document.ts";
import type { ObjectPlan, Refusal } from "./object-plan.ts";
import { orphanManifest } from "./orphan-manifest.ts";
import { planBase } from "./plan-base.ts";
import { readDocument } from "./read-document.ts";

export async function planPlain(params: {
  pairing: Pairing;
  status: DriftStatus;
  context: CodifyContext;
}): Promise<ObjectPlan | Refusal> {
  const { pairing, status, context } = params;
  const base = planBase(pairing, status);
  if (status === "orphaned") {
    const live = pairing.live!;
    const { manifest, defaults } = orphanManifest({
      live,
      group: groupOf(live.apiVersion),
      trackingLabel: context.trackingLabel,
      defaultNamespace: context.target.namespace ?? "default",
      noisePointers: context.policy.noiseFilters.map((f) => f.pointer),
    });
    const file = newFileName({
      dir: context.files.targetPath,
      kind: live.kind,
      name: live.metadata.name,
      namespace: live.metadata.namespace,
      taken: (f) => isTaken(context, f),
    });
    context.created.add(file);
    return { ...base, ops: [{ kind: "create-file", file, text: manifestText(manifest) }], defaults };
  }

  const desired = pairing.desired!;
  const { file, document } = desired.source;
  const problem = await context.files.editProblem(file);
  if (problem) return { reason: `cannot edit ${problem}` };
  const text = await context.files.read(file);
  if (text === undefined) return { reason: `${file} no longer exists` };
  const read = readDocument({ file, text, document });
  if ("reason" in read) return read;
  const where = objectInDocument(read.value, desired.object);
  if (!where) return { reason: `${file} (document ${document}) no longer declares it` };
  if (status === "missing") {
    return {
      ...base,
      ops: [{ kind: "remove-document", file, document, ...(where.item === undefined ? {} : { item: where.item }) }],
    };
  }
  const { edits, unresolved, defaults } = driftEdits({
    desired: desired.object,
    live: pairing.live!,
    changes: pairing.comparison!.changes,
    group: groupOf(desired.object.apiVersion),
  });
  if (unresolved.length > 0) return { reason: `the drifted field ${unresolved[0]} could not be found in Git` };
  return {
    ...base,
    defaults,
    ops: edits.map((edit) => ({
      kind: "set" as const,
      file,
      document,
      path: [...where.prefix, ...edit.path],
      ...(edit.value === undefined ? {} : { value: edit.value }),
    })),
  };
}
