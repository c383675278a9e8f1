// Applies plans to in-memory copies of the files, one object at a time: an
// object whose edit fails is rolled back alone and reported. Field edits come
// first, then document removals (last document first, so indexes hold), then
// kustomization entries of files that were emptied and removed.
import { posix } from "node:path";
import type { ObjectPlan } from "./object-plan.ts";
import { readDocument } from "./read-document.ts";
import { removeYamlDocument } from "./yaml/remove-yaml-document.ts";
import { setYamlValue } from "./yaml/set-yaml-value.ts";
import { YamlEditError } from "./yaml/yaml-edit-error.ts";

/** File texts by repository path; undefined for a file that does not (or no longer) exist. */
export type FileTexts = Map<string, string | undefined>;

export function applyPlans(params: {
  plans: ObjectPlan[];
  originals: ReadonlyMap<string, string | undefined>;
  /** Kustomization files inside the target's folder, whose `resources` may list a removed file. */
  kustomizations: string[];
  inTarget: (file: string) => boolean;
}): { files: FileTexts; failures: Map<string, string> } {
  const { plans, inTarget } = params;
  let files: FileTexts = new Map(params.originals);
  const failures = new Map<string, string>();
  const attempt = (plan: ObjectPlan, change: () => void) => {
    const before = new Map(files);
    try {
      change();
    } catch (error) {
      if (!(error instanceof YamlEditError)) throw error;
      files = before;
      failures.set(plan.id, error.message);
    }
  };
  const guard = (file: string) => {
    // Planning never aims outside the target's folder; this is the last line that makes sure.
    if (!inTarget(file)) throw new Error(`codify: refusing to write ${file}, outside the target's folder`);
  };

  for (const plan of plans) {
    attempt(plan, () => {
      for (const op of plan.ops) {
        guard(op.file);
        if (op.kind === "create-file") {
          if (files.get(op.file) === undefined) files.set(op.file, op.text);
        } else if (op.kind === "set") {
          const text = files.get(op.file);
          if (text === undefined) throw new YamlEditError(`${op.file}: the file does not exist`, { file: op.file });
          files.set(
            op.file,
            setYamlValue({ file: op.file, text, document: op.document, path: op.path, value: op.value }),
          );
        }
      }
    });
  }

  const removals = plans
    .filter((p) => !failures.has(p.id))
    .flatMap((plan) => plan.ops.flatMap((op) => (op.kind === "remove-document" ? [{ plan, op }] : [])))
    .sort(
      (a, b) =>
        a.op.file.localeCompare(b.op.file) || b.op.document - a.op.document || (b.op.item ?? 0) - (a.op.item ?? 0),
    );
  const removedFrom = new Map<string, ObjectPlan[]>();
  for (const { plan, op } of removals) {
    attempt(plan, () => {
      guard(op.file);
      const text = files.get(op.file);
      if (text === undefined) throw new YamlEditError(`${op.file}: the file does not exist`, { file: op.file });
      files.set(op.file, removeYamlDocument({ file: op.file, text, document: op.document, item: op.item }));
      removedFrom.set(op.file, [...(removedFrom.get(op.file) ?? []), plan]);
    });
  }

  for (const [file, owners] of removedFrom) {
    if (files.get(file) !== undefined) continue;
    for (const kustomization of params.kustomizations) {
      const text = files.get(kustomization);
      if (text === undefined) continue;
      for (const entry of listedAs(kustomization, text, file)) {
        const plan = owners[0]!;
        attempt(plan, () => {
          const current = files.get(kustomization)!;
          const path = ["f:resources", `v:${JSON.stringify(entry)}`];
          files.set(
            kustomization,
            setYamlValue({ file: kustomization, text: current, document: 0, path, value: undefined }),
          );
        });
      }
    }
  }
  return { files, failures };
}

/** The `resources` entries of a kustomization that name `file`. */
function listedAs(kustomization: string, text: string, file: string): string[] {
  const read = readDocument({ file: kustomization, text, document: 0 });
  if ("reason" in read) return [];
  const resources = (read.value as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(resources)) return [];
  const dir = posix.dirname(kustomization);
  return resources.filter((e): e is string => typeof e === "string" && posix.join(dir, e) === file);
}
