// The kustomization `images:` entry that produced a rendered image, if any:
// its newName (or name) is the image's name, and its newTag/digest match.
import { parseImage } from "./image-reference.ts";
import type { ImageEntry, Kustomization } from "./read-kustomization.ts";

export function imageEntryFor(kustomization: Kustomization, rendered: string): ImageEntry | undefined {
  const image = parseImage(rendered);
  return kustomization.images.find(
    (e) =>
      (e.newName ?? e.name) === image.name &&
      (e.newName !== undefined || e.newTag !== undefined || e.digest !== undefined) &&
      (e.newTag === undefined || e.newTag === image.tag) &&
      (e.digest === undefined || e.digest === image.digest),
  );
}
