// Where a kustomize target's drift goes. For each drifted field, in order:
//   1. an image set by the kustomization's `images:` entry: that entry's newTag/newName/digest
//      (and a replica count its `replicas:` entry sets: that entry's count)
//   2. a field an overlay patch in the target's folder already sets: that patch
//   3. the object's source document, when it lies in the target's folder, and only if
//      editing it changes the render (a trial render checks; a later patch or transformer would win)
//   4. otherwise a strategic-merge patch of our own, undrift-patches/<kind>-<name>.yaml,
//      listed under the kustomization's `patches:`; a shared base is never edited.
// Missing objects lose their document when it is in the folder, else get a `$patch: delete`;
// orphans get a new file listed in `resources:`.
import { posix } from "node:path";
import { valueAt } from "../../drift/diff-values.ts";
import { setPath } from "../../drift/edit-object.ts";
import { groupOf } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";
import { checkSourceEdits } from "./check-source-edits.ts";
import { type CodifyContext, isTaken } from "./codify-context.ts";
import { declaredObject, stripNameAffixes } from "./declared-object.ts";
import { driftEdits, type FieldEdit } from "./drift-edits.ts";
import { imageOps } from "./image-ops.ts";
import type { Declared, Draft, KustomizeContext, PlanItem, Route } from "./kustomize-plan-types.ts";
import { manifestText } from "./manifest-text.ts";
import { newFileName } from "./new-file-name.ts";
import type { FileOp, ObjectPlan, Refusal } from "./object-plan.ts";
import { orphanManifest } from "./orphan-manifest.ts";
import { listPatch, ownPatchFile } from "./own-patch-file.ts";
import { type PatchDocument, patchDocuments } from "./patch-documents.ts";
import { patchEdit } from "./patch-edit.ts";
import { planBase } from "./plan-base.ts";
import { readKustomization } from "./read-kustomization.ts";
import { routeImages } from "./route-images.ts";
import type { TrialRender } from "./trial-render.ts";

export async function planKustomize(params: {
  items: PlanItem[];
  context: CodifyContext;
  trial: TrialRender;
  /** Kustomization files in the target's folder, the target's own first. */
  kustomizations: string[];
}): Promise<Array<ObjectPlan | Refusal>> {
  const { items, context } = params;
  const file = params.kustomizations[0];
  const kustomization = file ? await readKustomization({ files: context.files, file }) : undefined;
  if (!kustomization) return items.map(() => ({ reason: "the target's kustomization cannot be read" }));
  const patches = await patchDocuments({ files: context.files, kustomization });
  const k: KustomizeContext = { context, kustomization, patches, ownPatches: new Map() };

  // 1. Edits, and where each goes.
  const out: Array<ObjectPlan | Refusal | Draft> = [];
  for (const item of items) {
    if (item.status === "orphaned") out.push(planOrphan(k, item));
    else if (item.status === "missing") out.push(await planMissing(k, item));
    else out.push(await draftDrifted(k, item));
  }
  const drafts = out.filter((d): d is Draft => "routes" in d);
  routeImages(k, drafts);

  // 2. Source edits a later patch or transformer would override go to a patch.
  const buildPlan = (draft: Draft) => planOf(k, draft);
  if (drafts.some((d) => [...d.routes.values()].includes("source"))) {
    await checkSourceEdits({ k, drafts, buildPlan, trial: params.trial, kustomizations: params.kustomizations });
  }

  // 3. File operations.
  const plans: Array<ObjectPlan | Refusal> = [];
  for (const entry of out) plans.push("routes" in entry ? await buildPlan(entry) : entry);
  return plans;
}

async function draftDrifted(k: KustomizeContext, item: PlanItem): Promise<Draft | Refusal> {
  const desired = item.pairing.desired!;
  const object = desired.object;
  const declared = await declaredObject(k, object, desired.source);
  const { edits, unresolved, defaults } = driftEdits({
    desired: object,
    live: item.pairing.live!,
    changes: item.pairing.comparison!.changes,
    group: groupOf(object.apiVersion),
  });
  if (unresolved.length > 0) return { reason: `the drifted field ${unresolved[0]} could not be found in Git` };
  const routes = new Map<FieldEdit, Route>();
  for (const edit of edits) {
    const inPatch = patchSetting(k.patches, object, declared, edit) !== undefined;
    const route = replicasEntry(k, object, declared, edit)
      ? "replicas"
      : inPatch
        ? "patch"
        : declared.editable && declared.prefix
          ? "source"
          : "new-patch";
    routes.set(edit, route);
  }
  return { item, object, declared, edits, routes, defaults };
}

/** The kustomization's `replicas:` entry for the object, when the edit is its replica count (it overrides patches). */
function replicasEntry(k: KustomizeContext, object: KubeObject, declared: Declared, edit: FieldEdit) {
  if (edit.path.join("/") !== "f:spec/f:replicas" || typeof edit.value !== "number") return undefined;
  return k.kustomization.replicas.find((r) => r.name === declared.name || r.name === object.metadata.name);
}

/** An overlay patch document in the target's folder that targets the object and sets the edited field. */
function patchSetting(patches: PatchDocument[], object: KubeObject, declared: Declared, edit: FieldEdit) {
  const patched = patchEdit({ edit, intended: object, group: groupOf(object.apiVersion) });
  const doc = patches.find(
    (p) =>
      p.kind === object.kind &&
      (p.name === declared.name || p.name === object.metadata.name) &&
      valueAt(p.value, patched.path) !== undefined,
  );
  return doc && { doc, patched };
}

async function planOf(k: KustomizeContext, draft: Draft): Promise<ObjectPlan | Refusal> {
  const { object, declared } = draft;
  const ops: FileOp[] = [];
  const group = groupOf(object.apiVersion);
  for (const edit of draft.edits) {
    const route = draft.routes.get(edit)!;
    if (route === "image") {
      ops.push(...imageOps(k.kustomization, valueAt(object, edit.path) as string, edit.value as string));
    } else if (route === "replicas") {
      const entry = replicasEntry(k, object, declared, edit)!;
      const path = ["f:replicas", `k:${JSON.stringify({ name: entry.name })}`, "f:count"];
      ops.push({ kind: "set", file: k.kustomization.file, document: 0, path, value: edit.value });
    } else if (route === "source") {
      const path = [...declared.prefix!, ...edit.path];
      const value = edit.value === undefined ? {} : { value: edit.value };
      ops.push({ kind: "set", file: declared.file, document: declared.document, path, ...value });
    } else if (route === "patch") {
      const { doc, patched } = patchSetting(k.patches, object, declared, edit)!;
      ops.push({ kind: "set", file: doc.file, document: doc.document, path: patched.path, value: patched.value });
    }
  }
  const ownPatch = draft.edits.filter((e) => draft.routes.get(e) === "new-patch");
  if (ownPatch.length > 0) {
    // Lists a patch replaces whole take their intended value: the rendered list with every edit applied.
    const intended = JSON.parse(JSON.stringify(object)) as KubeObject;
    for (const edit of draft.edits) setPath(intended, edit.path, edit.value);
    const file = await ownPatchFile(k, object, declared, "");
    ops.push({ kind: "create-file", file, text: manifestText(skeleton(object, declared)) });
    for (const edit of ownPatch) {
      const patched = patchEdit({ edit, intended, group });
      ops.push({ kind: "set", file, document: 0, path: patched.path, value: patched.value });
    }
    ops.push(...listPatch(k.kustomization, file));
  }
  const hint = declared.generated
    ? { hint: `it is generated by ${declared.file}; change the generator's input there` }
    : {};
  return { ...planBase(draft.item.pairing, "drifted"), ops, defaults: draft.defaults, ...hint };
}

/** A strategic-merge patch's head: the object as its declaration names it. */
function skeleton(object: KubeObject, declared: Declared): Record<string, unknown> {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: { name: declared.name, ...(declared.namespace ? { namespace: declared.namespace } : {}) },
  };
}

async function planMissing(k: KustomizeContext, item: PlanItem): Promise<ObjectPlan | Refusal> {
  const desired = item.pairing.desired!;
  const declared = await declaredObject(k, desired.object, desired.source);
  const base = planBase(item.pairing, "missing");
  if (declared.editable && declared.prefix) {
    const { file, document } = declared;
    const op: FileOp = {
      kind: "remove-document",
      file,
      document,
      ...(declared.item === undefined ? {} : { item: declared.item }),
    };
    return { ...base, ops: [op] };
  }
  // Declared in a base (or generated): the overlay deletes it from its own render.
  const file = await ownPatchFile(k, desired.object, declared, "delete-");
  const text = manifestText({ ...skeleton(desired.object, declared), $patch: "delete" });
  return { ...base, ops: [{ kind: "create-file", file, text }, ...listPatch(k.kustomization, file)] };
}

function planOrphan(k: KustomizeContext, item: PlanItem): ObjectPlan | Refusal {
  const { context, kustomization } = k;
  const live = item.pairing.live!;
  const namespace = live.metadata.namespace;
  if (kustomization.namespace && namespace && namespace !== kustomization.namespace) {
    return {
      reason: `it runs in namespace ${namespace}, but ${kustomization.file} puts every object in ${kustomization.namespace}`,
    };
  }
  const name = stripNameAffixes(kustomization, live.metadata.name);
  if (name === undefined) return { reason: `its name lacks the namePrefix/nameSuffix ${kustomization.file} adds` };
  const { manifest, defaults } = orphanManifest({
    live,
    group: groupOf(live.apiVersion),
    trackingLabel: context.trackingLabel,
    defaultNamespace: kustomization.namespace ?? context.target.namespace ?? "default",
    noisePointers: context.policy.noiseFilters.map((f) => f.pointer),
  });
  manifest.metadata.name = name;
  const taken = (f: string) => isTaken(context, f);
  const file = newFileName({ dir: kustomization.dir, kind: live.kind, name, namespace, taken });
  context.created.add(file);
  const entry = posix.relative(kustomization.dir, file);
  const resources = ["f:resources", `v:${JSON.stringify(entry)}`];
  return {
    ...planBase(item.pairing, "orphaned"),
    defaults,
    ops: [
      { kind: "create-file", file, text: manifestText(manifest) },
      { kind: "set", file: kustomization.file, document: 0, path: resources, value: entry },
    ],
  };
}
