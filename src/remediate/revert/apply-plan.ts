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

export interface ApplyPlanParams {
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
  ignoreRules: IgnoreRule[] | undefined;
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
}

export async function applyPlan(params: ApplyPlanParams): Promise<{ entries: AppliedEntry[]; index: ResourceIndex }> {
  const run = new PlanRun(params);
  const entries: AppliedEntry[] = [];
  for (const stage of [0, 1, 2, 3] as const) {
    run.progress();
    const done = await mapLimit(
      params.objects.filter((p) => p.stage === stage),
      8,
      (planned) => run.step(planned),
    );
    entries.push(...done);
    await run.afterStage(stage, done);
  }
  return { entries, index: run.index };
}

const changed = (e: AppliedEntry) => e.record.action === "created" || e.record.action === "configured";

/** One applyPlan: discovery as the waits refresh it, the CRDs and Namespaces applied so far, the applies counted. */
class PlanRun {
  index: ResourceIndex;
  private readonly params: ApplyPlanParams;
  private readonly time = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  private readonly crds = new Map<string, AppliedEntry>();
  /** Namespaces a dry run would create: the server cannot dry-run anything inside them. */
  private readonly newNamespaces = new Set<string>();
  private readonly usedKinds: Set<string>;
  private readonly total: number;
  private applies = 0;

  constructor(params: ApplyPlanParams) {
    this.params = params;
    this.index = params.index;
    this.usedKinds = new Set(params.objects.map((p) => kindKeyOf(p.desired.object)));
    this.total = params.objects.filter((p) => p.status === "drifted" || p.status === "missing").length;
  }

  progress(): void {
    this.params.onProgress?.({ step: "apply", done: this.applies, total: this.total, dryRun: this.params.dryRun });
  }

  async step(planned: PlannedObject): Promise<AppliedEntry> {
    const { params } = this;
    const object = planned.desired.object;
    const ref = refOf(object);
    if (planned.status === "in-sync") return { planned, record: { ...ref, action: applyAction["in-sync"] } };
    if (planned.status === "not-compared") {
      const reason = "not compared by the scan (see its problems), so not applied unseen";
      return { planned, record: { ...ref, action: "skipped", reason } };
    }
    const resource = this.index.find(object.apiVersion, object.kind);
    if (!resource) return { planned, record: unserved(planned, this.crds.get(kindKeyOf(object)), params.dryRun) };
    const namespace = object.metadata.namespace;
    if (namespace && this.newNamespaces.has(namespace)) {
      return { planned, record: unchecked(planned, `its namespace ${namespace} is created by this revert`) };
    }
    if (params.signal?.aborted) {
      return { planned, record: { ...ref, action: "skipped", reason: "interrupted before it was applied" } };
    }
    try {
      const { record, applied } = await applyDesired({
        client: params.client,
        resource,
        planned,
        fieldManager: params.fieldManager,
        force: params.force,
        isHuman: params.isHuman,
        dryRun: params.dryRun,
        time: this.time,
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
      this.applies++;
      this.progress();
    }
  }

  /** What later stages need from this one: CRDs Established and served, Namespaces Active (a dry run only notes them). */
  async afterStage(stage: 0 | 1 | 2 | 3, done: AppliedEntry[]): Promise<void> {
    const { client, signal, onProgress, deadline, wait } = this.params;
    const hooks = { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) };
    if (stage === 0) for (const e of done) remember(this.crds, e);
    if (this.params.dryRun) {
      if (stage === 1)
        for (const e of done.filter((e) => e.record.action === "created")) this.newNamespaces.add(e.record.name);
      return;
    }
    if (stage === 0) {
      // Custom resources need their CRD Established whatever the wait mode: that is order, not health.
      const awaited = done.filter(
        (e) => changed(e) && (wait !== "none" || this.usedKinds.has(definedKind(e.planned.desired.object) ?? "")),
      );
      await recordHealth({ client, index: this.index, entries: awaited, wait: true, deadline, ...hooks });
      const unserved = this.params.objects.filter(
        (p) => p.stage > 1 && !this.index.find(p.desired.object.apiVersion, p.desired.object.kind),
      );
      if (unserved.length > 0 && awaited.length > 0) {
        const objects = unserved.map((p) => p.desired.object);
        this.index = await awaitKinds({ client, objects, deadline, ...(signal ? { signal } : {}) });
      }
    }
    if (stage === 1 && wait !== "none") {
      const namespaces = done.filter(changed);
      await recordHealth({ client, index: this.index, entries: namespaces, wait: true, deadline, ...hooks });
    }
  }
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
