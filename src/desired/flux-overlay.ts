// What kustomize-controller does to a Kustomization's path before it builds
// it (fluxcd/pkg/kustomize's Generator), done the same way on undrift's
// scratch copy: find the folder's kustomization file or generate one that
// lists every YAML manifest beneath it (a sub-folder with a kustomization of
// its own is listed as a folder, not descended into), then set the object's
// targetNamespace, namePrefix and nameSuffix and append its patches,
// components and images, keeping what the file already says. After the build,
// the metadata the controller sets when it applies (commonMetadata, its own
// labels) goes on each object, top-level metadata only, as the controller does.
import { readdir } from "node:fs/promises";
import { join, posix } from "node:path";
import { isMap, isSeq, parseDocument, stringify } from "yaml";
import type { FluxRender } from "../config/target-origin.ts";
import type { KubeObject } from "../model/types.ts";
import { findKustomization } from "./find-kustomization.ts";

/** A kustomization listing every manifest under `dir`, as Flux generates one for a folder without any. */
export async function generatedKustomization(dir: string): Promise<string> {
  const resources = await manifestsUnder(dir, ".");
  // Flux's own placeholder for a folder without manifests, so that kustomize does not refuse an empty file.
  const body = resources.length > 0 ? { resources } : { namespace: "_placeholder" };
  return stringify({ apiVersion: "kustomize.config.k8s.io/v1beta1", kind: "Kustomization", ...body });
}

async function manifestsUnder(dir: string, relative: string): Promise<string[]> {
  const entries = (await readdir(join(dir, relative), { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const found: string[] = [];
  for (const entry of entries) {
    const path = posix.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === ".git") continue;
      if (await findKustomization(join(dir, path))) found.push(`./${path}`);
      else found.push(...(await manifestsUnder(dir, path)));
    } else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) {
      found.push(`./${path}`);
    }
  }
  return found;
}

/**
 * The kustomization `text` with the Kustomization's overlays put on it; `exists` says whether a component folder
 * (relative to the kustomization) is there, for `ignoreMissingComponents`.
 */
export async function withFluxOverlay(params: {
  text: string;
  flux: FluxRender;
  exists: (relative: string) => Promise<boolean>;
}): Promise<string> {
  const { flux } = params;
  const parsed = parseDocument(params.text);
  // A kustomization of comments alone is valid to kustomize; it becomes a mapping with the overlays.
  const doc = isMap(parsed.contents) ? parsed : parseDocument("{}\n");
  if (flux.targetNamespace) doc.set("namespace", flux.targetNamespace);
  if (flux.namePrefix) doc.set("namePrefix", flux.namePrefix);
  if (flux.nameSuffix) doc.set("nameSuffix", flux.nameSuffix);
  const append = (key: string, items: unknown[]) => {
    if (items.length === 0) return;
    const seq = doc.get(key);
    if (isSeq(seq)) for (const item of items) seq.add(doc.createNode(item));
    else doc.set(key, doc.createNode(items));
  };
  append(
    "patches",
    flux.patches.map(({ patch, target }) => ({ patch, ...(target ? { target } : {}) })),
  );
  const components: string[] = [];
  for (const component of flux.components) {
    if (flux.ignoreMissingComponents && !(await params.exists(component))) continue;
    components.push(component);
  }
  append("components", components);
  mergeImages(doc, flux.images);
  return doc.toString({ lineWidth: 0 });
}

/** An image the file already names takes the object's newName, and its newTag and digest as one (Flux's merge). */
function mergeImages(doc: ReturnType<typeof parseDocument>, images: FluxRender["images"]): void {
  if (images.length === 0) return;
  const existing = doc.get("images");
  const list = isSeq(existing) ? existing : undefined;
  const added: unknown[] = [];
  for (const image of images) {
    const entry = list?.items.find((item) => isMap(item) && String(item.get("name")) === image.name);
    if (!isMap(entry)) {
      added.push(image);
      continue;
    }
    if (image.newName) entry.set("newName", image.newName);
    if (image.newTag || image.digest) {
      if (image.newTag) entry.set("newTag", image.newTag);
      else entry.delete("newTag");
      if (image.digest) entry.set("digest", image.digest);
      else entry.delete("digest");
    }
  }
  if (added.length === 0) return;
  if (list) for (const item of added) list.add(doc.createNode(item));
  else doc.set("images", doc.createNode(added));
}

/** `object` with the labels and annotations kustomize-controller sets when it applies (top-level metadata only). */
export function withFluxMetadata(object: KubeObject, metadata: FluxRender["metadata"]): KubeObject {
  const merge = (own: Record<string, string> | undefined, added: Record<string, string>) =>
    Object.keys(added).length > 0 ? { ...own, ...added } : own;
  const labels = merge(object.metadata.labels, metadata.labels);
  const annotations = merge(object.metadata.annotations, metadata.annotations);
  return {
    ...object,
    metadata: { ...object.metadata, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
  };
}
