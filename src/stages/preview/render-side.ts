// A preview's render of one tree of a target, taken out of the render cache (a
// preview uses a render once); a render error is part of the answer, with
// file and line, never thrown.
import type { TargetConfig } from "../../config/schema.ts";
import type { RenderCache } from "../../desired/render-cache.ts";
import { RenderError } from "../../desired/render-error.ts";
import type { RenderResult } from "../../desired/render-target.ts";

export type Rendered = { rendered: RenderResult } | { error: { message: string; file?: string; line?: number } };

/** The render, taken out of `renders`: each preview uses a render once. */
export async function renderSide(renders: RenderCache, repoDir: string, target: TargetConfig): Promise<Rendered> {
  try {
    return { rendered: await renders.render(repoDir, target) };
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const where = { ...(error.file ? { file: error.file } : {}), ...(error.line ? { line: error.line } : {}) };
    return { error: { message: error.message, ...where } };
  } finally {
    renders.forget(repoDir, target);
  }
}
