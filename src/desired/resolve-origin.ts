// Maps kustomize's `config.kubernetes.io/origin` annotation back to the file
// and document an object was declared in. The annotation is a small YAML
// string, with paths relative to the kustomization that was built:
//   path: ../../base/deployment.yaml                      (a resource file)
//   configuredIn: kustomization.yaml                      (a generated object:
//   configuredBy: {apiVersion: builtin, kind: ConfigMapGenerator}   its generator)
// and `repo`/`ref` for remote resources, which undrift refuses before building.
import { readFile } from "node:fs/promises";
import { join, posix } from "node:path";
import { parse } from "yaml";
import type { KubeObject, Source } from "../model/types.ts";
import { parseManifests } from "./parse-manifests.ts";
import { RenderError } from "./render-error.ts";

export const originAnnotation = "config.kubernetes.io/origin";

/** Kind and name of each object a file declares, by document; cached per file across one render. */
export type DocumentIndexCache = Map<string, Promise<{ document: number; kind: string; name: string }[]>>;

/** The source of one kustomize output object; `kustomizationFile` (repo-relative) when it carries no origin. */
export async function resolveOrigin({
  repoDir,
  targetPath,
  kustomizationFile,
  object,
  cache,
}: {
  repoDir: string;
  targetPath: string;
  kustomizationFile: string;
  object: KubeObject;
  cache: DocumentIndexCache;
}): Promise<Source> {
  const raw = object.metadata.annotations?.[originAnnotation];
  if (raw === undefined) return { file: kustomizationFile, document: 0 };
  const origin = parse(raw) as { path?: unknown; repo?: unknown; configuredIn?: unknown } | null;
  if (origin?.repo !== undefined) {
    throw new RenderError(`${kustomizationFile}: ${describe(object)} comes from remote ${String(origin.repo)}`, {
      file: kustomizationFile,
    });
  }
  // Generated objects (configMapGenerator, secretGenerator) are declared by the kustomization that configured them.
  if (typeof origin?.configuredIn === "string") {
    return { file: inRepo(targetPath, origin.configuredIn, kustomizationFile), document: 0 };
  }
  if (typeof origin?.path !== "string") return { file: kustomizationFile, document: 0 };
  const file = inRepo(targetPath, origin.path, kustomizationFile);
  let documents = cache.get(file);
  if (!documents) {
    documents = readDocuments(repoDir, file);
    cache.set(file, documents);
  }
  return { file, document: matchDocument(await documents, object) };
}

/**
 * The document declaring `object`: same kind and name; else the same kind whose name the output name
 * contains (namePrefix/nameSuffix), longest first; else the only document of that kind; else 0.
 */
function matchDocument(documents: { document: number; kind: string; name: string }[], object: KubeObject): number {
  const sameKind = documents.filter((d) => d.kind === object.kind);
  const exact = sameKind.find((d) => d.name === object.metadata.name);
  if (exact) return exact.document;
  const contained = sameKind
    .filter((d) => d.name !== "" && object.metadata.name.includes(d.name))
    .sort((a, b) => b.name.length - a.name.length);
  if (contained[0] && contained[0].name.length !== contained[1]?.name.length) return contained[0].document;
  return sameKind.length === 1 ? sameKind[0]!.document : 0;
}

async function readDocuments(repoDir: string, file: string) {
  const text = await readFile(join(repoDir, file), "utf8");
  return parseManifests({ file, text }).flatMap(({ index, value }) =>
    // A List's items all live in its document.
    (isList(value) ? (value.items as unknown[]) : [value]).map((item) => ({
      document: index,
      kind: String((item as { kind?: unknown } | null)?.kind ?? ""),
      name: String((item as { metadata?: { name?: unknown } } | null)?.metadata?.name ?? ""),
    })),
  );
}

function isList(value: unknown): value is { items: unknown[] } {
  const list = value as { kind?: unknown; items?: unknown } | null;
  return typeof list?.kind === "string" && list.kind.endsWith("List") && Array.isArray(list.items);
}

function inRepo(targetPath: string, relative: string, kustomizationFile: string): string {
  const file = posix.normalize(posix.join(targetPath, relative));
  if (file === ".." || file.startsWith("../") || posix.isAbsolute(file)) {
    throw new RenderError(`${kustomizationFile}: kustomize reports a source outside the repository: ${relative}`, {
      file: kustomizationFile,
    });
  }
  return file;
}

function describe(object: KubeObject): string {
  return `${object.kind} "${object.metadata.name}"`;
}
