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
  const edits = new FileEdits(params.originals, params.inTarget);
  for (const plan of params.plans) edits.editFields(plan);
  const removedFrom = edits.removeDocuments(params.plans);
  edits.unlistRemovedFiles(removedFrom, params.kustomizations);
  return { files: edits.files, failures: edits.failures };
}

/** The texts as edited so far, and each plan that failed with why; a plan's edits land whole or not at all. */
class FileEdits {
  files: FileTexts;
  readonly failures = new Map<string, string>();
  private readonly inTarget: (file: string) => boolean;

  constructor(originals: ReadonlyMap<string, string | undefined>, inTarget: (file: string) => boolean) {
    this.files = new Map(originals);
    this.inTarget = inTarget;
  }

  /** Runs `change`; a YAML edit that fails rolls back what it did and fails `plan`. */
  private attempt(plan: ObjectPlan, change: () => void): void {
    const before = new Map(this.files);
    try {
      change();
    } catch (error) {
      if (!(error instanceof YamlEditError)) throw error;
      this.files = before;
      this.failures.set(plan.id, error.message);
    }
  }

  private guard(file: string): void {
    // Planning never aims outside the target's folder; this is the last line that makes sure.
    if (!this.inTarget(file)) throw new Error(`codify: refusing to write ${file}, outside the target's folder`);
  }

  private existing(file: string): string {
    const text = this.files.get(file);
    if (text === undefined) throw new YamlEditError(`${file}: the file does not exist`, { file });
    return text;
  }

  /** Step 1: a plan's new files and field edits. */
  editFields(plan: ObjectPlan): void {
    this.attempt(plan, () => {
      for (const op of plan.ops) {
        this.guard(op.file);
        if (op.kind === "create-file") {
          if (this.files.get(op.file) === undefined) this.files.set(op.file, op.text);
        } else if (op.kind === "set") {
          const text = this.existing(op.file);
          this.files.set(
            op.file,
            setYamlValue({ file: op.file, text, document: op.document, path: op.path, value: op.value }),
          );
        }
      }
    });
  }

  /** Step 2: documents removed, last first in each file so indexes hold; returns the plans that removed from each file. */
  removeDocuments(plans: ObjectPlan[]): Map<string, ObjectPlan[]> {
    const removals = plans
      .filter((p) => !this.failures.has(p.id))
      .flatMap((plan) => plan.ops.flatMap((op) => (op.kind === "remove-document" ? [{ plan, op }] : [])))
      .sort(
        (a, b) =>
          a.op.file.localeCompare(b.op.file) || b.op.document - a.op.document || (b.op.item ?? 0) - (a.op.item ?? 0),
      );
    const removedFrom = new Map<string, ObjectPlan[]>();
    for (const { plan, op } of removals) {
      this.attempt(plan, () => {
        this.guard(op.file);
        const text = this.existing(op.file);
        this.files.set(op.file, removeYamlDocument({ file: op.file, text, document: op.document, item: op.item }));
        removedFrom.set(op.file, [...(removedFrom.get(op.file) ?? []), plan]);
      });
    }
    return removedFrom;
  }

  /** Step 3: a file left empty and removed is taken out of the `resources` of each kustomization that lists it. */
  unlistRemovedFiles(removedFrom: Map<string, ObjectPlan[]>, kustomizations: string[]): void {
    for (const [file, owners] of removedFrom) {
      if (this.files.get(file) !== undefined) continue;
      for (const kustomization of kustomizations) {
        const text = this.files.get(kustomization);
        if (text === undefined) continue;
        for (const entry of listedAs(kustomization, text, file)) {
          this.attempt(owners[0]!, () => {
            const current = this.files.get(kustomization)!;
            const path = ["f:resources", `v:${JSON.stringify(entry)}`];
            this.files.set(
              kustomization,
              setYamlValue({ file: kustomization, text: current, document: 0, path, value: undefined }),
            );
          });
        }
      }
    }
  }
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
