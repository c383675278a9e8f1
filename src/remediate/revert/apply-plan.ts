// Applies a revert plan stage by stage (CRDs, Namespaces, cluster-scoped,
// namespaced), up to 8 objects at once within a stage. Between stages it waits
// for what later stages need:
//   - after CRDs: each applied CRD Established, then discovery serving its kind;
//   - after Namespaces: each applied Namespace Active (wait modes all and dependencies).
// A dry run waits for nothing: nothing it applies exists afterwards. Custom
// resources of a CRD the dry run only checked cannot be checked themselves
// (their kind is not served yet), nor objects in a Namespace it only checked
// creating (the server refuses `namespaces "x" not found`); both are recorded
// as the real run would, with a reason saying the server did not check them.

import type { IgnoreRule, Jq } from "../../drift/ignore-rules.ts";
import type { ResourceIndex } from "../../live/discovery.ts";
import { ClusterUnreachableError } from "../../live/errors.ts";
import type { KubeClient } from "../../live/kube-client.ts";
import { mapLimit } from "../../live/map-limit.ts";
import { applyAction, type ObjectRecord, type WaitMode } from "../../model/change-set.ts";
import { kindKeyOf } from "../../model/object-key.ts";
import type { OnProgress } from "../../model/progress.ts";
import { refOf } from "../../model/ref-of.ts";
import { definedKind } from "../../plan/revert/apply-stage.ts";
import type { PlannedObject } from "../../plan/revert/plan-revert.ts";
import { applyDesired } from "./apply-desired.ts";
import { awaitKinds } from "./await-kinds.ts";
import { type AppliedEntry, recordHealth } from "./record-health.ts";
import { RevertError } from "./revert-error.ts";

export async function applyPlan(params: {
  client: KubeClient;
  index: ResourceIndex;
  objects: PlannedObject[];
  fieldManager: string;
  force: boolean;
  isHuman: (manager: string) => boolean;
  dryRun: boolean;
  wait: WaitMode;
  deadline: number;
  /** Rules whose fields keep their live values on objects that exist: respectedIgnoreRules(target). */
  ignoreRules: IgnoreRule[];
  jq: Jq;
  /**
   * A cluster that stops answering mid-way fails the objects it did not answer for (records saying so)
   * and the others keep theirs, for a person reading what was done; without it the error stops the
   * apply, for a job whose retry applies the whole plan again.
   */
  recordUnreachable?: boolean;
  /**
   * Interrupted (Ctrl-C): applies in flight finish, the rest are skipped with a reason saying so, and
   * waits end, so the records say exactly what was applied.
   */
  signal?: AbortSignal;
  /** Told how many of the objects that change are applied, and what a wait between stages is on. */
  onProgress?: OnProgress;
}): Promise<{ entries: AppliedEntry[]; index: ResourceIndex }> {
  const { client, dryRun, signal, onProgress } = params;
  const hooks = { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) };
  let index = params.index;
  const time = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const entries: AppliedEntry[] = [];
  const crds = new Map<string, AppliedEntry>();
  /** Namespaces a dry run would create: the server cannot dry-run anything inside them. */
  const newNamespaces = new Set<string>();
  const usedKinds = new Set(params.objects.map((p) => kindKeyOf(p.desired.object)));
  const changed = (e: AppliedEntry) => e.record.action === "created" || e.record.action === "configured";
  const total = params.objects.filter((p) => p.status === "drifted" || p.status === "missing").length;
  let applies = 0;
  const progress = () => onProgress?.({ step: "apply", done: applies, total, dryRun });

  const step = async (planned: PlannedObject): Promise<AppliedEntry> => {
    const object = planned.desired.object;
    const ref = refOf(object);
    if (planned.status === "in-sync") return { planned, record: { ...ref, action: applyAction["in-sync"] } };
    if (planned.status === "not-compared") {
      const reason = "not compared by the scan (see its problems), so not applied unseen";
      return { planned, record: { ...ref, action: "skipped", reason } };
    }
    const resource = index.find(object.apiVersion, object.kind);
    if (!resource) return { planned, record: unserved(planned, crds.get(kindKeyOf(object)), dryRun) };
    const namespace = object.metadata.namespace;
    if (namespace && newNamespaces.has(namespace)) {
      return { planned, record: unchecked(planned, `its namespace ${namespace} is created by this revert`) };
    }
    if (signal?.aborted) {
      return { planned, record: { ...ref, action: "skipped", reason: "interrupted before it was applied" } };
    }
    try {
      const { record, applied } = await applyDesired({
        client,
        resource,
        planned,
        fieldManager: params.fieldManager,
        force: params.force,
        isHuman: params.isHuman,
        dryRun,
        time,
        ignoreRules: params.ignoreRules,
        jq: params.jq,
      });
      return { planned, record, ...(applied ? { applied } : {}) };
    } catch (error) {
      if (!params.recordUnreachable || !unreachable(error)) throw error;
      // A lost answer may come after the server applied it; the next revert finds it in sync or applies it.
      const reason = `${error.step}: ${error.cause.message}; it may not be applied: run revert again`;
      return { planned, record: { ...ref, action: "failed", reason } };
    } finally {
      applies++;
      progress();
    }
  };

  for (const stage of [0, 1, 2, 3] as const) {
    progress();
    const objects = params.objects.filter((p) => p.stage === stage);
    const done = await mapLimit(objects, 8, step);
    entries.push(...done);
    if (stage === 0) for (const e of done) remember(crds, e);
    if (dryRun) {
      if (stage === 1)
        for (const e of done.filter((e) => e.record.action === "created")) newNamespaces.add(e.record.name);
      continue;
    }
    if (stage === 0) {
      // Custom resources need their CRD Established whatever the wait mode: that is order, not health.
      const awaited = done.filter(
        (e) => changed(e) && (params.wait !== "none" || usedKinds.has(definedKind(e.planned.desired.object) ?? "")),
      );
      await recordHealth({ client, index, entries: awaited, wait: true, deadline: params.deadline, ...hooks });
      const unserved = params.objects.filter(
        (p) => p.stage > 1 && !index.find(p.desired.object.apiVersion, p.desired.object.kind),
      );
      if (unserved.length > 0 && awaited.length > 0) {
        const objects = unserved.map((p) => p.desired.object);
        index = await awaitKinds({ client, objects, deadline: params.deadline, ...(signal ? { signal } : {}) });
      }
    }
    if (stage === 1 && params.wait !== "none") {
      const namespaces = done.filter(changed);
      await recordHealth({ client, index, entries: namespaces, wait: true, deadline: params.deadline, ...hooks });
    }
  }
  return { entries, index };
}

function unreachable(error: unknown): error is RevertError & { cause: ClusterUnreachableError } {
  return error instanceof RevertError && error.cause instanceof ClusterUnreachableError;
}

function remember(crds: Map<string, AppliedEntry>, entry: AppliedEntry): void {
  const kind = definedKind(entry.planned.desired.object);
  if (kind) crds.set(kind, entry);
}

/** The record of an object whose kind the cluster does not serve: its CRD is in this target but not (yet) usable. */
function unserved(planned: PlannedObject, crd: AppliedEntry | undefined, dryRun: boolean): ObjectRecord {
  const object = planned.desired.object;
  const ref = refOf(object);
  const name = crd?.planned.desired.object.metadata.name;
  if (!crd)
    return { ...ref, action: "failed", reason: `the cluster does not serve ${object.apiVersion} ${object.kind}` };
  const crdOk =
    crd.record.action === "created" || crd.record.action === "configured" || crd.record.action === "unchanged";
  if (dryRun && crdOk)
    return unchecked(planned, `${object.kind} is served only once CustomResourceDefinition ${name} is applied`);
  const why = !crdOk
    ? `was ${crd.record.action === "failed" ? "not applied" : "skipped"}`
    : crd.record.health && crd.record.health.status !== "healthy"
      ? `is not Established (${crd.record.health.message ?? crd.record.health.status})`
      : `is applied, but the cluster does not serve ${object.apiVersion} ${object.kind}`;
  return { ...ref, action: "skipped", reason: `waits for CustomResourceDefinition ${name}, which ${why}` };
}

/** A dry run's record of an object the server cannot check yet: what the real run would do, and why unchecked. */
function unchecked(planned: PlannedObject, why: string): ObjectRecord {
  const action = planned.status === "missing" ? applyAction.missing : applyAction.drifted;
  return { ...refOf(planned.desired.object), action, reason: `not checked by the server: ${why}` };
}
