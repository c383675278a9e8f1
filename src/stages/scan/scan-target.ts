// One scan of one target, the pipeline both the CLI and the app run:
//   1. read the config and pick the target
//   2. render the target folder into desired objects
//   3. discover the cluster's kinds and settle namespaces and tracking labels
//   4. fetch live objects (paged LISTs by kind)
//   5. compare locally; confirm candidates by server-side dry-run apply
//   6. classify, mask and fingerprint into a report
import type { KubeConfig } from "@kubernetes/client-node";
import { readRepoConfig } from "../../config/load-config.ts";
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { trackingLabel } from "../../config/tracking-label.ts";
import type { SkippedDocument } from "../../desired/extract-objects.ts";
import { finalizeDesired } from "../../desired/finalize-desired.ts";
import { renderInWorker } from "../../desired/render-in-worker.ts";
import type { Renderer, RenderResult } from "../../desired/render-target.ts";
import { repoRevision } from "../../desired/repo-revision.ts";
import { buildReport, type Pairing } from "../../drift/build-report.ts";
import { type ComparePolicy, compareObject } from "../../drift/compare-object.ts";
import { comparePolicy } from "../../drift/compare-policy.ts";
import { loadJq } from "../../drift/jq.ts";
import { ClusterSession } from "../../live/cluster-session.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { desiredKey, resolveDesired } from "../../live/fetch-live.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { groupOf, keyString, objectKey } from "../../model/object-key.ts";
import type { DesiredObject, DriftReport, ScanProblem } from "../../model/types.ts";
import { UndriftError } from "../../model/undrift-error.ts";
import { confirmDrift } from "./confirm-drift.ts";

/** A target name the config does not have. */
export class UnknownTargetError extends UndriftError {
  override name = "UnknownTargetError";
  readonly permanent = true;
}

export function pickTarget(config: RepoConfig, name: string): TargetConfig {
  const target = config.targets.find((t) => t.name === name);
  if (!target) {
    const names = config.targets.map((t) => t.name).join(", ");
    throw new UnknownTargetError(`target "${name}" is not in .github/undrift.yml (it has: ${names})`);
  }
  return target;
}

/** A scan with the state remediation needs: the target, desired objects, the live pairs, the client and discovery. */
export interface ScanResult {
  config: RepoConfig;
  target: TargetConfig;
  report: DriftReport;
  desired: DesiredObject[];
  pairings: Pairing[];
  client: KubeClient;
  index: ResourceIndex;
  /** The renderer the target used (auto resolved). */
  renderer: Renderer;
  /** The comparison policy the scan used, so remediation judges drift the same way. */
  policy: ComparePolicy;
  /** Documents the render skipped because they declare no object (values files, CI config), with why. */
  skipped: SkippedDocument[];
}

export async function scanTarget(params: ScanParams): Promise<DriftReport> {
  return (await runScan(params)).report;
}

export interface ScanParams {
  repoDir: string;
  targetName: string;
  kubeConfig: KubeConfig;
  config?: RepoConfig;
  /** The target already rendered from `repoDir` (a preview renders base and head first, to see whether they differ). */
  rendered?: RenderResult;
  /** The revision to report, when `repoDir` is not a checkout of it (an extracted snapshot). */
  revision?: string;
  /** Discovery and LISTs shared with the other scans of this cluster in one run; a scan of its own by default. */
  session?: ClusterSession;
}

export async function runScan(params: ScanParams): Promise<ScanResult> {
  const started = performance.now();
  const config = params.config ?? (await readRepoConfig(params.repoDir));
  const target = pickTarget(config, params.targetName);
  // The cluster side starts at once: discovery and the selector LISTs need nothing from Git.
  const session = params.session ?? new ClusterSession(params.kubeConfig);
  const { client } = session;
  const requestsBefore = client.requests;
  const cluster = Promise.all([session.discover(), session.listTracked(target.tracking.selector)]);
  const [rendered, revision, jq, [index, tracked]] = await Promise.all([
    params.rendered ?? renderInWorker({ repoDir: params.repoDir, target }),
    params.revision ?? repoRevision(params.repoDir),
    loadJq(),
    cluster,
  ]);
  const policy = comparePolicy(target, jq);
  const desired = finalizeDesired({
    objects: rendered.objects,
    namespace: target.namespace,
    trackingLabel: trackingLabel(target),
    scopeOf: (apiVersion, kind) => index.scopeOf(apiVersion, kind),
  });
  const live = await resolveDesired({ client, index, desired, tracked, selector: target.tracking.selector });
  const problems: ScanProblem[] = [...live.problems];

  // Local pass first: an object it finds in sync costs nothing more.
  const pairings: Pairing[] = [];
  const toConfirm: Pairing[] = [];
  for (const d of desired) {
    const key = desiredKey(d.object);
    if (live.unknown.has(key)) continue;
    const object = live.byDesired.get(key);
    if (!object) {
      pairings.push({ desired: d });
      continue;
    }
    const group = groupOf(d.object.apiVersion);
    const comparison = compareObject({ desired: d.object, live: object, group, policy });
    const pairing: Pairing = { desired: d, live: object, comparison };
    pairings.push(pairing);
    if (comparison.needsDryRun || comparison.needsDefaults) toConfirm.push(pairing);
  }
  let dryRuns = 0;
  await mapLimit(toConfirm, 8, async (pairing) => {
    const result = await confirmDrift({ pairing, session, index, fieldManager: target.fieldManager, policy, problems });
    dryRuns += result.dryRuns;
  });

  const declared = new Set(desired.map((d) => keyString(objectKey(d.object))));
  for (const [key, object] of tracked.objects) if (!declared.has(key)) pairings.push({ live: object });

  const report = buildReport({ target: target.name, revision, pairings, problems });
  report.stats = {
    objects: desired.length,
    // With a shared session, the requests this scan added (a concurrent scan's may be counted here too).
    requests: client.requests - requestsBefore,
    dryRuns,
    durationMs: Math.round(performance.now() - started),
  };
  return {
    config,
    target,
    report,
    desired,
    pairings,
    client,
    index,
    renderer: rendered.renderer,
    policy,
    skipped: rendered.skipped,
  };
}
