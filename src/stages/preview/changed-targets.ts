// Which targets a pull request changes: those whose rendered objects differ
// between base and head. Rendering, not the list of changed files, decides, so
// an edit to a kustomize base outside the target's folder counts, and a comment
// or a file that renders to the same objects does not. A change to the target's
// own settings in the config (its namespace, its ignore rules) counts too.
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { RenderCache } from "../../desired/render-cache.ts";
import { RenderError } from "../../desired/render-error.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { keyString, objectKey } from "../../model/object-key.ts";

export async function changedTargets(params: {
  headDir: string;
  baseDir: string;
  baseConfig?: RepoConfig;
  /** Head's targets to look at (resolved by the caller, from headConfig). */
  targets: TargetConfig[];
  /** Keeps the renders of the changed targets for their previews (those of unchanged ones are let go). */
  renders?: RenderCache;
}): Promise<{ changed: TargetConfig[]; unchanged: TargetConfig[] }> {
  const renders = params.renders ?? new RenderCache();
  const verdicts = await mapLimit(params.targets, 2, async (head) => {
    // Base is another config: the name is what says a target of head is the same target there.
    const base = params.baseConfig?.targets.find((t) => t.name === head.name);
    if (!base || JSON.stringify(base) !== JSON.stringify(head)) return true;
    const [before, after] = await Promise.all([
      renderedObjects(renders, params.baseDir, base),
      renderedObjects(renders, params.headDir, head),
    ]);
    // A render that fails in head (or starts to work) is a change reviewers must see.
    const changed = before === undefined || after === undefined || before !== after;
    if (!changed) {
      renders.forget(params.baseDir, base);
      renders.forget(params.headDir, head);
    }
    return changed;
  });
  return {
    changed: params.targets.filter((_, i) => verdicts[i]),
    unchanged: params.targets.filter((_, i) => !verdicts[i]),
  };
}

/** The objects a target renders to, as one canonical string (sorted by identity; sources left out); undefined when it does not render. */
async function renderedObjects(
  renders: RenderCache,
  repoDir: string,
  target: TargetConfig,
): Promise<string | undefined> {
  try {
    const { objects } = await renders.render(repoDir, target);
    return JSON.stringify(
      objects
        .map((d) => [keyString(objectKey(d.object)), canonical(d.object)] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  } catch (error) {
    if (error instanceof RenderError) return undefined;
    throw error;
  }
}

/** A value with object keys sorted, so key order in YAML is not a change. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
