// What merging head would do to one target's cluster, in the way the app and
// `undrift preview` show it to reviewers:
//   1. render head (a failure ends here: it is the answer, with file and line)
//      and base (a failure there only loses the "drift now" part);
//   2. scan head against the cluster: a server-side dry-run apply settles every
//      object that applying head would change (the drift engine's own confirm
//      step), and a dry-run apply of each object head creates gives the server's
//      defaults; in-sync objects are unchanged;
//   3. the target's live objects head no longer declares go through the same
//      prune decision the heal makes (rules, then the target's `prune`, then
//      planPrune's guards, with what the other targets at head declare), so
//      "would be deleted" is what would really happen;
//   4. scan base on the same cluster session (discovery and LISTs are shared):
//      the drift the cluster already has, so reviewers know what the PR's base
//      already differs in.
// Nothing is written to the cluster: every apply here is a dry run.
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { RenderCache } from "../../desired/render-cache.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { PruneGuard } from "../../model/change-set.ts";
import type { PreviewReport } from "../../model/preview-report.ts";
import { scanResolvedTarget } from "../scan/scan-target.ts";
import { noPreview } from "./no-preview.ts";
import { previewResources } from "./preview-resources.ts";
import { prunePreview } from "./prune-preview.ts";
import { renderBase } from "./render-base.ts";
import { renderSide } from "./render-side.ts";
import { summarizePreview } from "./summarize-preview.ts";

/** Guards that refuse the whole prune rather than one object: said once, as `pruneRefused`. */
const wholePruneGuards = new Set<PruneGuard>(["empty-render", "max-percent", "selector", "others-unknown"]);

export interface PreviewParams {
  /** Working tree of the pull request's head. */
  headDir: string;
  /** Working tree of its base; without one, the drift-now part is left out. */
  baseDir?: string;
  /** Head's config, and the target of it to preview: the caller resolves it once (the CLI at its edge). */
  headConfig: RepoConfig;
  target: TargetConfig;
  /** Revisions named in the report. */
  head: string;
  base: string;
  /** Base's config when already read (the app has it); else read from baseDir. */
  baseConfig?: RepoConfig;
  /** The target's cluster: discovery and LISTs shared with the other previews of it in this run. */
  session: ClusterSession;
  /** Renders already made (changedTargets made them to see what changed); the preview lets go of its own. */
  renders?: RenderCache;
}

/** Throws only when the cluster cannot be read; a render error is part of the answer. */
export async function previewTarget(params: PreviewParams): Promise<PreviewReport> {
  const started = performance.now();
  const { headConfig, target, session } = params;
  const identity = { target: target.name, cluster: target.cluster, base: params.base, head: params.head };

  // 1. The renders of head and base.
  const renders = params.renders ?? new RenderCache();
  const [head, base] = await Promise.all([
    renderSide(renders, params.headDir, target),
    renderBase(params, renders, target),
  ]);
  if ("error" in head) {
    const stats = {
      objects: 0,
      requests: 0,
      durationMs: Math.round(performance.now() - started),
      dryRuns: 0,
      desired: 0,
    };
    return { ...identity, status: "render-failed", error: head.error, ...noPreview(), baseError: base.error, stats };
  }

  // 2. Head and base scanned on one session, each with the target its own config resolved.
  const requestsBefore = session.client.requests;
  const [headScan, baseScan] = await Promise.all([
    scanResolvedTarget({
      repoDir: params.headDir,
      config: headConfig,
      target,
      session,
      rendered: head.rendered,
      revision: params.head,
    }),
    base.rendered && base.config && base.target && params.baseDir
      ? scanResolvedTarget({
          repoDir: params.baseDir,
          config: base.config,
          target: base.target,
          session,
          rendered: base.rendered,
          revision: params.base,
        })
      : undefined,
  ]);

  // 3. What merging would create, change and prune, and the counts.
  const { resources, dryRuns } = await previewResources(headScan, target, session);
  const prune = await prunePreview(headScan, target);
  const refusal = prune.find((p) => p.guard !== undefined && wholePruneGuards.has(p.guard));
  const summary = summarizePreview(resources, prune, baseScan);
  return {
    ...identity,
    status: "previewed",
    summary,
    resources,
    prune,
    ...(refusal?.reason ? { pruneRefused: refusal.reason } : {}),
    ...(baseScan ? { drift: baseScan.report } : {}),
    ...(base.error ? { baseError: base.error } : {}),
    problems: headScan.report.problems,
    stats: {
      objects: resources.length + prune.length,
      // With a shared session, the requests this preview added (a concurrent one's may be counted here too).
      requests: session.client.requests - requestsBefore,
      durationMs: Math.round(performance.now() - started),
      dryRuns: dryRuns + (headScan.report.stats?.dryRuns ?? 0) + (baseScan?.report.stats?.dryRuns ?? 0),
      desired: headScan.desired.length,
    },
  };
}
