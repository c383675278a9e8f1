// What the repository's other targets declare, read from the same tree the
// target was scanned from, for the prune guard that keeps another target's
// objects (plan/prune/other-targets.ts). Each is rendered (a failed render, or
// one that skipped a document, makes that target unknown: then nothing is
// pruned) and keyed by group, kind, namespace and name as the scan pairs them.
// Every target of the config counts, whatever its cluster: keeping an object
// that a target of another cluster happens to declare under the same key costs
// a kept orphan, while deleting one that a target of this cluster declares
// loses data, and the CLI cannot always tell which cluster a target means.
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { renderInWorker } from "../../desired/render-in-worker.ts";
import type { RenderResult, RenderTarget } from "../../desired/render-target.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { keyString, objectKey } from "../../model/object-key.ts";
import { oneLine } from "../../model/one-line.ts";
import type { KubeObject } from "../../model/types.ts";
import type { OtherTargets } from "../../plan/prune/other-targets.ts";

export async function otherTargetsOf(params: {
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  index: ResourceIndex;
  /** How a target is rendered; a job that already rendered them passes its cache. */
  render?: (target: RenderTarget) => Promise<RenderResult>;
}): Promise<OtherTargets> {
  const render = params.render ?? ((target: RenderTarget) => renderInWorker({ repoDir: params.repoDir, target }));
  const others = params.config.targets.filter((t) => t.name !== params.target.name);
  const outcomes = await Promise.all(
    others.map(async (other) => {
      try {
        return { other, rendered: await render(other) };
      } catch (error) {
        return { other, error: oneLine(error instanceof Error ? error.message : String(error), { fold: "breaks" }) };
      }
    }),
  );
  const declared = new Map<string, string[]>();
  const unknown: { target: string; reason: string }[] = [];
  for (const { other, rendered, error } of outcomes) {
    if (!rendered) {
      unknown.push({ target: other.name, reason: error ?? "no render" });
      continue;
    }
    const skipped = rendered.skipped[0];
    if (skipped) {
      unknown.push({ target: other.name, reason: `its render skipped ${skipped.file}: ${skipped.reason}` });
      continue;
    }
    for (const { object } of rendered.objects) {
      for (const key of keysOf(object, other, params.index)) {
        const names = declared.get(key) ?? [];
        if (!names.includes(other.name)) names.push(other.name);
        declared.set(key, names);
      }
    }
  }
  return { declared, unknown };
}

/**
 * The keys an object of `target` has live, namespaced as finalizeDesired settles it. A kind the cluster does not
 * serve (a CRD not yet applied) has unknown scope, so both keys count, as gitops-engine's reconcile checks both
 * the namespaced and the cluster key when scope is in doubt.
 */
function keysOf(object: KubeObject, target: TargetConfig, index: ResourceIndex): string[] {
  const key = objectKey(object);
  const namespaced = keyString({ ...key, namespace: object.metadata.namespace || target.namespace || "default" });
  const cluster = keyString({ ...key, namespace: "" });
  const scope = index.scopeOf(object.apiVersion, object.kind);
  return scope === "Cluster" ? [cluster] : scope === "Namespaced" ? [namespaced] : [namespaced, cluster];
}
