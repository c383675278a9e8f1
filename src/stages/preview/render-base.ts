// Base's side of a preview: its config and its render of the target head
// previews. A failure there only loses the "drift now" part, so it is said,
// never thrown; a target new in head or moved to another cluster has no base.
import { ConfigError } from "../../config/config-error.ts";
import { readRepoConfig } from "../../config/load-config.ts";
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import type { RenderCache } from "../../desired/render-cache.ts";
import type { RenderResult } from "../../desired/render-target.ts";
import { renderSide } from "./render-side.ts";

/** Base's config and render of the same target; what goes wrong there is said, never thrown. */
export async function renderBase(
  params: { baseDir?: string | undefined; baseConfig?: RepoConfig | undefined },
  renders: RenderCache,
  headTarget: TargetConfig,
): Promise<{ config?: RepoConfig; target?: TargetConfig; rendered?: RenderResult; error?: string }> {
  if (!params.baseDir) return {};
  let config = params.baseConfig;
  try {
    config ??= await readRepoConfig(params.baseDir);
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
  // Base is another config: the name is what says a target there is head's target.
  const target = config.targets.find((t) => t.name === headTarget.name);
  // A target new in head has no base to have drifted from.
  if (!target) return {};
  // Nor does one the pull request moves to another cluster: base's objects were never meant to run there.
  if (target.cluster !== headTarget.cluster) {
    return { error: `base binds the target to cluster ${target.cluster}, not ${headTarget.cluster}` };
  }
  const base = await renderSide(renders, params.baseDir, target);
  return "error" in base ? { error: base.error.message } : { config, target, rendered: base.rendered };
}
