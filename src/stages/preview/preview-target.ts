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
//      planPrune's guards), so "would be deleted" is what would really happen;
//   4. scan base on the same cluster session (discovery and LISTs are shared):
//      the drift the cluster already has, so reviewers know what the PR's base
//      already differs in.
// Nothing is written to the cluster: every apply here is a dry run.
import type { KubeConfig } from "@kubernetes/client-node";
import { ConfigError } from "../../config/config-error.ts";
import { readRepoConfig } from "../../config/load-config.ts";
import type { RepoConfig, TargetConfig } from "../../config/schema.ts";
import { RenderCache } from "../../desired/render-cache.ts";
import { RenderError } from "../../desired/render-error.ts";
import type { RenderResult } from "../../desired/render-target.ts";
import { cleanObject } from "../../drift/clean-object.ts";
import { isSecret, maskSecretPair, redactSecretValues } from "../../drift/mask.ts";
import { ClusterSession } from "../../live/cluster-session.ts";
import { KubeApiError } from "../../live/errors.ts";
import { mapLimit } from "../../live/map-limit.ts";
import type { ObjectRecord } from "../../model/change-set.ts";
import { groupOf, keyString, objectKey } from "../../model/object-key.ts";
import type { PreviewReport, PreviewResource, PreviewSummary, PrunePreview } from "../../model/preview-report.ts";
import { refOf } from "../../model/ref-of.ts";
import type { KubeObject, ResourceReport } from "../../model/types.ts";
import { planTargetPrune } from "../../plan/prune/plan-target-prune.ts";
import { pickTarget, runScan, type ScanResult } from "../scan/scan-target.ts";
import { noPreview } from "./no-preview.ts";

export interface PreviewParams {
  /** Working tree of the pull request's head. */
  headDir: string;
  /** Working tree of its base; without one, the drift-now part is left out. */
  baseDir?: string;
  targetName: string;
  kubeConfig: KubeConfig;
  /** Revisions named in the report. */
  head: string;
  base: string;
  /** Configs already read (the app has them); else read from the trees. */
  headConfig?: RepoConfig;
  baseConfig?: RepoConfig;
  /** Discovery and LISTs shared with other previews of the same cluster in this run. */
  session?: ClusterSession;
  /** Renders already made (changedTargets made them to see what changed); the preview lets go of its own. */
  renders?: RenderCache;
}

/** Throws only when the cluster cannot be read (or head's config is invalid); a render error is part of the answer. */
export async function previewTarget(params: PreviewParams): Promise<PreviewReport> {
  const headConfig = params.headConfig ?? (await readRepoConfig(params.headDir));
  const target = pickTarget(headConfig, params.targetName);
  const identity = { target: target.name, cluster: target.cluster, base: params.base, head: params.head };

  const renders = params.renders ?? new RenderCache();
  const [head, base] = await Promise.all([
    render(renders, params.headDir, target),
    renderBase(params, renders, target),
  ]);
  if ("error" in head) {
    return { ...identity, status: "render-failed", error: head.error, ...noPreview(), baseError: base.error };
  }

  const session = params.session ?? new ClusterSession(params.kubeConfig);
  const scan = (repoDir: string, config: RepoConfig, rendered: RenderResult, revision: string) =>
    runScan({ repoDir, targetName: target.name, kubeConfig: params.kubeConfig, config, rendered, revision, session });
  const [headScan, baseScan] = await Promise.all([
    scan(params.headDir, headConfig, head.rendered, params.head),
    base.rendered && base.config && params.baseDir
      ? scan(params.baseDir, base.config, base.rendered, params.base)
      : undefined,
  ]);

  const resources = await previewResources(headScan, target, session);
  const prune = prunePreview(headScan, target);
  const refusal = prune.find((p) => p.guard === "empty-render" || p.guard === "max-percent" || p.guard === "selector");
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
  };
}

type Rendered = { rendered: RenderResult } | { error: { message: string; file?: string; line?: number } };

/** The render, taken out of `renders`: each preview uses a render once. */
async function render(renders: RenderCache, repoDir: string, target: TargetConfig): Promise<Rendered> {
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

/** Base's config and render of the same target; what goes wrong there is said, never thrown. */
async function renderBase(
  params: PreviewParams,
  renders: RenderCache,
  headTarget: TargetConfig,
): Promise<{ config?: RepoConfig; rendered?: RenderResult; error?: string }> {
  if (!params.baseDir) return {};
  let config = params.baseConfig;
  try {
    config ??= await readRepoConfig(params.baseDir);
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
  const target = config.targets.find((t) => t.name === params.targetName);
  // A target new in head has no base to have drifted from.
  if (!target) return {};
  // Nor does one the pull request moves to another cluster: base's objects were never meant to run there.
  if (target.cluster !== headTarget.cluster) {
    return { error: `base binds the target to cluster ${target.cluster}, not ${headTarget.cluster}` };
  }
  const base = await render(renders, params.baseDir, target);
  return "error" in base ? { error: base.error.message } : { config, rendered: base.rendered };
}

/** Head's objects as create / change / unchanged; created ones with the server's defaults from a dry-run apply. */
async function previewResources(
  scan: ScanResult,
  target: TargetConfig,
  session: ClusterSession,
): Promise<PreviewResource[]> {
  const declared = scan.report.resources.filter((r) => r.status !== "orphaned");
  // The report's objects are masked; a dry-run needs the rendered object itself.
  const rendered = new Map(
    scan.pairings.flatMap((p) =>
      p.desired && !p.live ? [[keyString(objectKey(p.desired.object)), p.desired] as const] : [],
    ),
  );
  return mapLimit(declared, 8, async (resource): Promise<PreviewResource> => {
    const base = identityOf(resource);
    if (resource.status === "in-sync") return { ...base, action: "unchanged", changes: [] };
    if (resource.status === "drifted") {
      return { ...base, action: "change", changes: resource.changes, live: resource.live, wouldBe: resource.wouldBe };
    }
    const desired = rendered.get(
      keyString({ ...resource, group: groupOf(resource.apiVersion), namespace: resource.namespace ?? "" }),
    );
    const created = desired ? await dryRunCreate(scan, session, target, desired.object) : {};
    return { ...base, action: "create", changes: [], wouldBe: created.wouldBe ?? resource.wouldBe, ...created.note };
  });
}

function identityOf(r: ResourceReport) {
  return {
    apiVersion: r.apiVersion,
    kind: r.kind,
    ...(r.namespace ? { namespace: r.namespace } : {}),
    name: r.name,
    ...(r.source ? { source: r.source } : {}),
  };
}

/** The object as a server-side apply would create it, defaults included; or why the rendered one is shown instead. */
async function dryRunCreate(
  scan: ScanResult,
  session: ClusterSession,
  target: TargetConfig,
  object: KubeObject,
): Promise<{ wouldBe?: KubeObject; note?: { note: string } }> {
  const resource = scan.index.find(object.apiVersion, object.kind);
  if (!resource)
    return {
      note: { note: `server defaults not shown: the cluster does not serve ${object.apiVersion} ${object.kind} yet` },
    };
  try {
    const applied = await session.dryRunApply({ resource, object, fieldManager: target.fieldManager });
    const wouldBe = cleanObject(applied);
    return { wouldBe: isSecret(wouldBe) ? maskSecretPair(undefined, wouldBe)[1] : wouldBe };
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    const namespace = object.metadata.namespace;
    const why =
      error.status === 404 && namespace
        ? `its namespace ${namespace} does not exist yet`
        : `the dry-run was refused: ${isSecret(object) ? redactSecretValues(error.message, [object]) : error.message}`;
    return { note: { note: `server defaults not shown: ${why}` } };
  }
}

/** The target's live objects head no longer declares, with what the merge does to each. */
function prunePreview(scan: ScanResult, target: TargetConfig): PrunePreview[] {
  const orphans = scan.pairings.flatMap((p) => (!p.desired && p.live ? [p.live] : []));
  const desired = scan.desired.map((d) => d.object);
  const plan = planTargetPrune({ orphans, desired, target, skippedDocuments: scan.skipped });
  return [
    ...plan.deletions.map((o): PrunePreview => ({ ...refOf(o), action: "delete" })),
    ...plan.skipped.map(pruneEntry),
  ];
}

function pruneEntry(record: ObjectRecord): PrunePreview {
  const { apiVersion, kind, namespace, name, guard, reason } = record;
  const action =
    guard === "not-requested"
      ? "orphan"
      : guard === "opted-out" || guard === "in-use" || guard === "untracked"
        ? "keep"
        : "refused";
  return {
    apiVersion,
    kind,
    ...(namespace ? { namespace } : {}),
    name,
    action,
    ...(guard ? { guard } : {}),
    ...(reason ? { reason } : {}),
  };
}

function summarizePreview(
  resources: PreviewResource[],
  prune: PrunePreview[],
  baseScan: ScanResult | undefined,
): PreviewSummary {
  const count = <T extends { action: string }>(list: T[], action: string) =>
    list.filter((x) => x.action === action).length;
  const drift = baseScan?.report.summary;
  return {
    create: count(resources, "create"),
    change: count(resources, "change"),
    unchanged: count(resources, "unchanged"),
    prune: count(prune, "delete"),
    orphan: count(prune, "orphan"),
    keep: count(prune, "keep"),
    refused: count(prune, "refused"),
    drift: drift ? drift.drifted + drift.missing + drift.orphaned : 0,
  };
}
