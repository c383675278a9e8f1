// One scan of one target, the pipeline both the CLI and the app run:
//   1. (the caller resolved the target: the CLI by name at its edge, see cli/run-scan.ts; a job at its top)
//   2. render the target folder into desired objects
//   3. discover the cluster's kinds and settle namespaces and tracking labels
//   4. fetch live objects (paged LISTs by kind)
//   5. compare locally; confirm candidates by server-side dry-run apply
//   6. classify, mask and fingerprint into a report
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { trackingLabel } from "../../config/tracking-label.ts";
import type { SkippedDocument } from "../../desired/extract-objects.ts";
import { finalizeDesired } from "../../desired/finalize-desired.ts";
import type { PostBuildVariables } from "../../desired/post-build/substitute-objects.ts";
import { renderInWorker } from "../../desired/render-in-worker.ts";
import type { Renderer, RenderResult } from "../../desired/render-target.ts";
import { repoRevision } from "../../desired/repo-revision.ts";
import { buildReport, type Pairing } from "../../drift/build-report.ts";
import type { ComparePolicy } from "../../drift/compare-object.ts";
import { comparePolicy } from "../../drift/compare-policy.ts";
import { loadJq } from "../../drift/jq.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { resolveDesired, StaleDiscoveryError, type Tracked } from "../../live/fetch-live.ts";
import { readPostBuildVariables } from "../../live/read-post-build-variables.ts";
import { kindKeyOf } from "../../model/object-key.ts";
import type { DesiredObject, DriftReport, ScanProblem } from "../../model/types.ts";
import { pairObjects } from "./pair-objects.ts";

/**
 * A scan with the state remediation needs: the target, desired objects, the live pairs and discovery. Data only:
 * the cluster client is the session's, which a caller that writes passes on itself.
 */
export interface ScanResult {
  /** The tree the target was rendered from: what the repository's other targets declare is read from it too. */
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  report: DriftReport;
  desired: DesiredObject[];
  pairings: Pairing[];
  index: ResourceIndex;
  /** The renderer the target used (auto resolved). */
  renderer: Renderer;
  /** The comparison policy the scan used, so remediation judges drift the same way. */
  policy: ComparePolicy;
  /** Documents the render skipped because they declare no object (values files, CI config), with why. */
  skipped: SkippedDocument[];
  /** A Flux target's post-build variables as the scan read them, for codify's trial renders; in memory only. */
  variables?: PostBuildVariables | undefined;
}

/** Kinds the worker may not watch: LISTed on every scan instead, said once per kind. */
function watchProblems(tracked: Tracked): ScanProblem[] {
  return (tracked.sources?.refused ?? []).map(({ resource, refusal }) => ({
    group: resource.group,
    kind: resource.kind,
    message: `cannot watch ${resource.group ? `${resource.resource}.${resource.group}` : resource.resource}: ${refusal.reason} (${refusal.status}); listed on every scan instead`,
  }));
}

/** A job's entry: its target resolved once, at the top of its pipeline, and scanned on the session it holds. */
export interface ResolvedScanParams {
  repoDir: string;
  config: RepoConfig;
  target: TargetConfig;
  /** Discovery and LISTs shared with the other scans of this cluster; the session holds the kubeconfig. */
  session: ClusterSession;
  /** The target already rendered from `repoDir`. */
  rendered?: RenderResult;
  /** The revision to report, when `repoDir` is not a checkout of it (an extracted snapshot). */
  revision?: string;
  /** When the scan began (performance.now()), for its duration; now by default. */
  started?: number;
}

export async function scanResolvedTarget(params: ResolvedScanParams): Promise<ScanResult> {
  const started = params.started ?? performance.now();
  const { config, target, session } = params;
  const { client } = session;
  const requestsBefore = client.requests;
  // 1-2. The render, and the cluster's kinds and tracked objects.
  const { rendered, revision, jq, index, tracked, variables } = await renderAndList(params);
  // 3. Namespaces and tracking labels settled by the cluster's kinds; the live objects looked up.
  const policy = comparePolicy(target, jq);
  const desired = finalizeDesired({
    objects: rendered.objects,
    namespace: target.namespace,
    trackingLabel: trackingLabel(target),
    scopeOf: (apiVersion, kind) => index.scopeOf(apiVersion, kind),
    unavailable: index.unavailable,
  });
  const live = await resolveDesired({ client, index, desired, tracked, selector: target.tracking.selector });
  const problems: ScanProblem[] = [...live.problems, ...watchProblems(tracked)];

  // 4. Compared locally, candidates confirmed by dry-run; orphans read in full.
  const { pairings, dryRuns, dryRunsReused } = await pairObjects({
    desired,
    live,
    tracked,
    session,
    index,
    target,
    policy,
    problems,
  });

  // 5. The report.
  const reconciler = target.origin && target.origin.from !== "config" ? target.origin : undefined;
  const report = buildReport({ target: target.name, revision, pairings, problems, reconciler });
  report.stats = {
    // What the report lists (orphans included), so it matches `resources`; what Git declares is `desired`.
    objects: report.resources.length,
    // With a shared session, the requests this scan added (a concurrent scan's may be counted here too).
    requests: client.requests - requestsBefore,
    dryRuns,
    durationMs: Math.round(performance.now() - started),
    desired: desired.length,
    ...(tracked.sources
      ? { cache: { watched: tracked.sources.watched, listed: tracked.sources.listed, dryRunsReused } }
      : {}),
  };
  return {
    repoDir: params.repoDir,
    config,
    target,
    report,
    desired,
    pairings,
    index,
    renderer: rendered.renderer,
    policy,
    skipped: rendered.skipped,
    ...(variables ? { variables } : {}),
  };
}

/** Steps 1 and 2 of a scan: the target rendered while the cluster is discovered and listed. */
async function renderAndList(params: ResolvedScanParams) {
  const { target, session } = params;
  // 1. The cluster side starts at once: discovery, and the selector LISTs of the kinds the target may not
  // declare, need nothing from Git; the kinds it declares are listed in full once it has rendered.
  // A Flux Kustomization's post-build variables are read from its cluster first: the render substitutes them.
  const reading = readPostBuildVariables({ client: session.client, postBuild: target.flux?.postBuild });
  const rendering = params.rendered
    ? Promise.resolve(params.rendered)
    : reading.then((variables) => renderInWorker({ repoDir: params.repoDir, target, variables }));
  const declared = rendering.then((r) => new Set(r.objects.map(({ object }) => kindKeyOf(object))));
  // A failed render is the scan's error (awaited in Promise.all below); `declared` and the LISTs fail with
  // it, or on their own, and are awaited later or never (the cluster failed first): heard here, not unhandled.
  declared.catch(() => undefined);
  const listing = session.listTracked(target.tracking.selector, declared);
  listing.catch(() => undefined);
  const [variables, rendered, revision, jq, discovered] = await Promise.all([
    reading,
    rendering,
    params.revision ?? repoRevision(params.repoDir),
    loadJq(),
    session.discover(),
  ]);
  // 2. Discovery from the disk cache that lacks a kind the target declares, or names one the server no
  // longer serves, is read again from the server, and the LISTs sent again once.
  let index = discovered;
  let tracked: Tracked;
  try {
    const unknown = rendered.objects.find(({ object }) => !index.find(object.apiVersion, object.kind));
    if (index.cached && unknown) throw new StaleDiscoveryError(`${kindKeyOf(unknown.object)} not in cached discovery`);
    tracked = await listing;
  } catch (error) {
    if (!(error instanceof StaleDiscoveryError)) throw error;
    index = await session.rediscover();
    tracked = await session.listTracked(target.tracking.selector, declared, index);
  }
  return { rendered, revision, jq, index, tracked, variables };
}
