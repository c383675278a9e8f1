// Image edits go to the `images:` entry that sets the image, when every
// container rendered with that image changes to the same new one: else the
// entry would also change containers that did not drift.
import { valueAt } from "../../drift/diff-values.ts";
import type { KubeObject } from "../../model/types.ts";
import type { FieldEdit } from "./drift-edits.ts";
import { imageEntryFor } from "./image-entry-for.ts";
import { parseImage } from "./image-reference.ts";
import type { Draft, KustomizeContext } from "./kustomize-plan-types.ts";

const containerLists = /^(containers|initContainers|ephemeralContainers)$/;

export function routeImages(k: KustomizeContext, drafts: Draft[]): void {
  const uses = new Map<string, number>();
  for (const { object } of k.context.desired) {
    for (const image of imagesOf(object)) uses.set(image, (uses.get(image) ?? 0) + 1);
  }
  const candidates: Array<{ draft: Draft; edit: FieldEdit; from: string; to: string }> = [];
  for (const draft of drafts) {
    for (const edit of draft.edits) {
      if (edit.path.at(-1) !== "f:image" || !containerLists.test(edit.path.at(-3)?.slice(2) ?? "")) continue;
      const from = valueAt(draft.object, edit.path);
      if (typeof from !== "string" || typeof edit.value !== "string") continue;
      const to = parseImage(edit.value);
      // An image without tag or digest would leave the entry nothing to say.
      if (!imageEntryFor(k.kustomization, from) || (!to.tag && !to.digest)) continue;
      candidates.push({ draft, edit, from, to: edit.value });
    }
  }
  for (const c of candidates) {
    const same = candidates.filter((o) => o.from === c.from && o.to === c.to).length;
    if (same === uses.get(c.from)) c.draft.routes.set(c.edit, "image");
  }
}

/** The images of every container list in an object (pod templates, job templates, pods). */
function imagesOf(object: KubeObject): string[] {
  const out: string[] = [];
  const walk = (value: unknown, key: string) => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const image = (item as { image?: unknown } | null)?.image;
        if (containerLists.test(key) && typeof image === "string") out.push(image);
        walk(item, "");
      }
    } else if (typeof value === "object" && value !== null) {
      for (const [name, child] of Object.entries(value)) walk(child, name);
    }
  };
  walk(object, "");
  return out;
}
