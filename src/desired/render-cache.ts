// Renders of one job, kept so a target is rendered once per tree: a preview
// job first renders base and head of every target to see which changed
// (changedTargets), then previews the changed ones, which needs the same
// renders. Failures are kept too (the same RenderError). The caller forgets
// what it no longer needs, so a job holds only the renders still to be used.
import { renderInWorker } from "./render-in-worker.ts";
import type { RenderResult, RenderTarget } from "./render-target.ts";

export class RenderCache {
  private readonly renders = new Map<string, Promise<RenderResult>>();

  /** The render of `target` in the tree at `repoDir`, made on first use. */
  render(repoDir: string, target: RenderTarget): Promise<RenderResult> {
    const key = keyOf(repoDir, target);
    let render = this.renders.get(key);
    if (!render) {
      render = renderInWorker({ repoDir, target });
      this.renders.set(key, render);
    }
    return render;
  }

  forget(repoDir: string, target: RenderTarget): void {
    this.renders.delete(keyOf(repoDir, target));
  }
}

/** Everything of the target that rendering reads, so a changed setting is another render. */
function keyOf(repoDir: string, target: RenderTarget): string {
  const { name, path, render, namespace, helm, flux } = target;
  return JSON.stringify([repoDir, name, path, render, namespace ?? null, helm ?? null, flux ?? null]);
}
