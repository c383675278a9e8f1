// Where a rendered object was declared and under which name: the source
// document says, when it can be read; else the rendered name without the
// overlay's namePrefix/nameSuffix (and without a generator's hash suffix).
import { valueAt } from "../../drift/diff-values.ts";
import type { KubeObject } from "../../model/types.ts";
import type { Declared, KustomizeContext } from "./kustomize-plan-types.ts";
import { objectInDocument } from "./object-in-document.ts";
import { readDocument } from "./read-document.ts";
import type { Kustomization } from "./read-kustomization.ts";

const kustomizationName = /(^|\/)(kustomization\.ya?ml|Kustomization)$/;

export async function declaredObject(
  k: KustomizeContext,
  object: KubeObject,
  source: { file: string; document: number },
): Promise<Declared> {
  const { files } = k.context;
  const generated = kustomizationName.test(source.file);
  let name = stripNameAffixes(k.kustomization, object.metadata.name) ?? object.metadata.name;
  // A generated ConfigMap or Secret is named by its generator plus a hash of its content, which patches do not name.
  if (generated) name = name.replace(/-[a-z0-9]{10}$/, "");
  const fallback: Declared = { ...source, name, editable: false, generated };
  const text = await files.read(source.file);
  if (text === undefined || generated) return fallback;
  const read = readDocument({ file: source.file, text, document: source.document });
  if ("reason" in read) return fallback;
  const where = objectInDocument(read.value, object);
  if (!where) return fallback;
  const declaredName = valueAt(read.value, [...where.prefix, "f:metadata", "f:name"]);
  const namespace = valueAt(read.value, [...where.prefix, "f:metadata", "f:namespace"]);
  return {
    ...source,
    prefix: where.prefix,
    ...(where.item === undefined ? {} : { item: where.item }),
    name: typeof declaredName === "string" ? declaredName : name,
    ...(typeof namespace === "string" ? { namespace } : {}),
    editable: files.inTarget(source.file) && !(await files.editProblem(source.file)),
    generated,
  };
}

/** The name as declared before the kustomization's namePrefix/nameSuffix; undefined when it lacks them. */
export function stripNameAffixes(kustomization: Kustomization, name: string): string | undefined {
  const { namePrefix, nameSuffix } = kustomization;
  if (!name.startsWith(namePrefix) || !name.endsWith(nameSuffix)) return undefined;
  return name.slice(namePrefix.length, name.length - nameSuffix.length);
}
