// Renders the target from edited texts, to prove edits before they are kept:
// a scratch copy of the repository (as the kustomize renderer makes one) whose
// touched files are rewritten for each trial; the working tree is never touched.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TargetConfig } from "../../config/schema.ts";
import { copyRepo } from "../../desired/copy-repo.ts";
import { finalizeDesired, type Scope } from "../../desired/finalize-desired.ts";
import type { PostBuildVariables } from "../../desired/post-build/substitute-objects.ts";
import { renderTarget } from "../../desired/render-target.ts";
import type { DesiredObject } from "../../model/types.ts";
import type { FileTexts } from "./apply-plans.ts";

export interface TrialRender {
  /** The finalized objects the target renders to with `files` in place of the repository's texts. */
  render(files: FileTexts): Promise<DesiredObject[]>;
  dispose(): Promise<void>;
}

export async function createTrialRender(params: {
  repoDir: string;
  target: TargetConfig;
  trackingLabel?: { key: string; value: string } | undefined;
  scopeOf: (apiVersion: string, kind: string) => Scope | undefined;
  /** A Flux target's post-build variables, as its scan read them. */
  variables?: PostBuildVariables | undefined;
}): Promise<TrialRender> {
  const scratch = await realpath(await mkdtemp(join(tmpdir(), "undrift-codify-")));
  const copy = join(scratch, "repo");
  try {
    await copyRepo({ repoDir: params.repoDir, dest: copy });
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    async render(files) {
      for (const [file, text] of files) {
        const abs = join(copy, file);
        if (text === undefined) await rm(abs, { force: true });
        else {
          await mkdir(dirname(abs), { recursive: true });
          await writeFile(abs, text);
        }
      }
      const rendered = await renderTarget({ repoDir: copy, target: params.target, variables: params.variables });
      return finalizeDesired({
        objects: rendered.objects,
        namespace: params.target.namespace,
        trackingLabel: params.trackingLabel,
        scopeOf: params.scopeOf,
      });
    },
    dispose: () => rm(scratch, { recursive: true, force: true }),
  };
}
