// Head's objects as a reviewer sees them: create, change or unchanged, from
// the head scan's dry-run confirmed report; a created object shows the
// server's defaults from a dry-run apply on the preview's session.

import type { TargetConfig } from "../../config/schema.ts";
import { cleanObject } from "../../drift/clean-object.ts";
import { maskSecretPair, redactSecretValues } from "../../drift/mask.ts";
import type { ClusterSession } from "../../live/cluster-session.ts";
import { KubeApiError } from "../../live/errors.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { isSecret } from "../../model/is-secret.ts";
import { keyString, objectKey, refKey } from "../../model/object-key.ts";
import { type PreviewResource, previewAction } from "../../model/preview-report.ts";
import type { KubeObject, ResourceReport } from "../../model/types.ts";
import type { ScanResult } from "../scan/scan-target.ts";

/** Head's objects as create / change / unchanged; created ones with the server's defaults from a dry-run apply (counted, for stats). */
export async function previewResources(
  scan: ScanResult,
  target: TargetConfig,
  session: ClusterSession,
): Promise<{ resources: PreviewResource[]; dryRuns: number }> {
  let dryRuns = 0;
  const declared = scan.report.resources.filter((r) => r.status !== "orphaned");
  // The report's objects are masked; a dry-run needs the rendered object itself.
  const rendered = new Map(
    scan.pairings.flatMap((p) =>
      p.desired && !p.live ? [[keyString(objectKey(p.desired.object)), p.desired] as const] : [],
    ),
  );
  // Changed objects whose dry-run apply the server refused as invalid: the merge's apply would fail on them.
  const refused = new Map(
    scan.pairings.flatMap((p) => (p.desired && p.refused ? [[keyString(objectKey(p.desired.object)), p.refused]] : [])),
  );
  const resources = await mapLimit(declared, 8, async (resource): Promise<PreviewResource> => {
    const base = identityOf(resource);
    if (resource.status === "in-sync") return { ...base, action: previewAction("in-sync"), changes: [] };
    if (resource.status === "drifted") {
      const { changes, live, wouldBe } = resource;
      const fails = refused.get(keyString(refKey(resource)));
      return { ...base, action: previewAction("drifted"), changes, live, wouldBe, ...(fails ? { fails } : {}) };
    }
    const desired = rendered.get(keyString(refKey(resource)));
    const created = desired ? await dryRunCreate(scan, session, target, desired.object) : {};
    if (created.dryRun) dryRuns++;
    const wouldBe = created.wouldBe ?? resource.wouldBe;
    return { ...base, action: previewAction("missing"), changes: [], wouldBe, ...created.note, ...created.fails };
  });
  return { resources, dryRuns };
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
): Promise<{ wouldBe?: KubeObject; note?: { note: string }; fails?: { fails: string }; dryRun?: true }> {
  const resource = scan.index.find(object.apiVersion, object.kind);
  if (!resource)
    return {
      note: { note: `server defaults not shown: the cluster does not serve ${object.apiVersion} ${object.kind} yet` },
    };
  try {
    const applied = await session.dryRunApply({ resource, object, fieldManager: target.fieldManager });
    const wouldBe = cleanObject(applied.object);
    return { wouldBe: isSecret(wouldBe) ? maskSecretPair(undefined, wouldBe)[1] : wouldBe, dryRun: true };
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    const refusal = isSecret(object) ? redactSecretValues(error.refusal, [object]) : error.refusal;
    // Refused as invalid, the object cannot be created by the merge either: said as a failure, not as a create.
    if (error.invalidObject) return { fails: { fails: refusal }, dryRun: true };
    const namespace = object.metadata.namespace;
    const why =
      error.status === 404 && namespace
        ? `its namespace ${namespace} does not exist yet`
        : `the dry-run was refused: ${isSecret(object) ? redactSecretValues(error.message, [object]) : error.message}`;
    return { note: { note: `server defaults not shown: ${why}` }, dryRun: true };
  }
}
