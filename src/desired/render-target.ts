// Renders one target folder of a repository working tree into desired objects,
// each with the file and document it came from.
//
//   const { objects, skipped, renderer } = await renderTarget({ repoDir, target });
//   const desired = finalizeDesired({ objects, namespace: target.namespace, scopeOf, trackingLabel });
import { access, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, posix } from "node:path";
import { outsideRepo } from "../config/outside-repo.ts";
import { symlinkLoop } from "../config/symlink-loop.ts";
import type { FluxRender } from "../config/target-origin.ts";
import type { DesiredObject } from "../model/types.ts";
import type { SkippedDocument } from "./extract-objects.ts";
import { findKustomization } from "./find-kustomization.ts";
import type { PostBuildVariables } from "./post-build/substitute-objects.ts";
import { RenderError } from "./render-error.ts";
import { renderHelm } from "./render-helm.ts";
import { renderKustomize } from "./render-kustomize.ts";
import { renderPlain } from "./render-plain.ts";
import { repoPath } from "./repo-path.ts";

export type Renderer = "plain" | "kustomize" | "helm";

/** The part of a target's configuration that rendering needs. */
export interface RenderTarget {
  name: string;
  /** Folder relative to the repository root. */
  path: string;
  render: "auto" | Renderer;
  namespace?: string;
  helm?: { releaseName?: string; valuesFiles?: string[] };
  /** A Flux Kustomization's target: built as kustomize-controller builds it (always kustomize). */
  flux?: FluxRender | undefined;
}

export interface RenderResult {
  objects: DesiredObject[];
  /** Documents that declared no object (values files, CI config, hooks), with why. */
  skipped: SkippedDocument[];
  renderer: Renderer;
}

/**
 * Renders `target.path` of the working tree at `repoDir`; throws RenderError naming the file at fault. A Flux
 * target with `postBuild` needs its `variables` (live/read-post-build-variables.ts).
 */
export async function renderTarget({
  repoDir,
  target,
  variables,
}: {
  repoDir: string;
  target: RenderTarget;
  variables?: PostBuildVariables | undefined;
}): Promise<RenderResult> {
  // Real paths, so tool messages and symlink checks speak of the same folders.
  const root = await realpath(repoDir);
  const targetPath = isAbsolute(target.path) ? undefined : repoPath({ repoDir: root, abs: join(root, target.path) });
  if (targetPath === undefined) {
    throw new RenderError(`target "${target.name}": path "${target.path}" is outside the repository`);
  }
  // The app's snapshots and codify's trial copies get here without the working tree's config check.
  const outside = await outsideRepo({ root, path: targetPath });
  if (outside) throw new RenderError(`target "${target.name}": path: ${outside}`, { file: targetPath });
  const info = await stat(join(root, targetPath)).catch(() => undefined);
  if (info && !info.isDirectory()) {
    throw new RenderError(`target "${target.name}": path: ${targetPath} is a file; a target's path is a folder`, {
      file: targetPath,
    });
  }
  const loop = info ? undefined : await symlinkLoop({ root, path: targetPath });
  if (loop) throw new RenderError(`target "${target.name}": path: ${loop}`, { file: targetPath });
  if (!info) {
    throw new RenderError(`${targetPath}: target "${target.name}": the folder does not exist in the repository`, {
      file: targetPath,
    });
  }

  const renderer = target.flux
    ? "kustomize"
    : target.render === "auto"
      ? await detectRenderer(join(root, targetPath))
      : target.render;
  switch (renderer) {
    case "plain":
      return { ...(await renderPlain({ repoDir: root, targetPath })), renderer };
    case "kustomize":
      return { ...(await renderKustomize({ repoDir: root, targetPath, flux: target.flux, variables })), renderer };
    case "helm": {
      const rendered = await renderHelm({
        repoDir: root,
        targetPath,
        releaseName: target.helm?.releaseName ?? target.name,
        namespace: target.namespace,
        valuesFiles: target.helm?.valuesFiles,
      });
      return { ...rendered, renderer };
    }
  }
}

/** kustomize when the folder has a kustomization, helm when it has a Chart.yaml, else plain. */
async function detectRenderer(dir: string): Promise<Renderer> {
  if (await findKustomization(dir)) return "kustomize";
  const chart = await access(posix.join(dir, "Chart.yaml")).then(
    () => true,
    () => false,
  );
  return chart ? "helm" : "plain";
}
