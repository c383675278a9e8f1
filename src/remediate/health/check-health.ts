// Readiness of one object as it stands, by rules per kind, in the spirit of
// kstatus and `kubectl rollout status`: a workload is ready once its controller
// has seen the latest spec (observedGeneration) and the replica counts say the
// rollout is done. Kinds without a rule are ready once they exist.

import type { Readiness } from "../../model/health.ts";
import { groupOf } from "../../model/object-key.ts";
import type { KubeObject } from "../../model/types.ts";

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

type Rule = (object: KubeObject, status: Record<string, unknown>) => Readiness;

const ready: Readiness = { status: "healthy" };
const notReady = (message: string): Readiness => ({ status: "not-ready", message });
const failed = (message: string): Readiness => ({ status: "failed", message });

const rules: Record<string, Rule> = {
  "apiextensions.k8s.io/CustomResourceDefinition": customResourceDefinition,
  "/Namespace": namespace,
  "apps/Deployment": deployment,
  "apps/StatefulSet": statefulSet,
  "apps/DaemonSet": daemonSet,
  "batch/Job": job,
};

/** The readiness of an object by the rule of its kind. */
export function checkHealth(object: KubeObject): Readiness {
  if (object.metadata.deletionTimestamp) return notReady("being deleted");
  const rule = rules[`${groupOf(object.apiVersion)}/${object.kind}`];
  return rule ? rule(object, (object.status ?? {}) as Record<string, unknown>) : ready;
}

function conditionOf(status: Record<string, unknown>, type: string): Condition | undefined {
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Condition[]) : [];
  return conditions.find((c) => c.type === type);
}

const because = (c: Condition | undefined) => [c?.reason, c?.message].filter(Boolean).join(": ");

function customResourceDefinition(_: KubeObject, status: Record<string, unknown>): Readiness {
  const names = conditionOf(status, "NamesAccepted");
  if (names?.status === "False") return failed(`names not accepted: ${because(names)}`);
  const established = conditionOf(status, "Established");
  return established?.status === "True" ? ready : notReady("not Established yet");
}

function namespace(_: KubeObject, status: Record<string, unknown>): Readiness {
  return status.phase === "Terminating" ? notReady("Terminating") : ready;
}

/** The controller has not yet acted on the latest spec, so its counts say nothing about it. */
function unobserved(object: KubeObject, status: Record<string, unknown>): Readiness | undefined {
  const generation = Number(object.metadata.generation ?? 0);
  const observed = Number(status.observedGeneration ?? 0);
  if (observed >= generation) return undefined;
  return notReady(`the controller has not observed generation ${generation} yet (observed ${observed})`);
}

const count = (value: unknown) => (typeof value === "number" ? value : 0);
const specOf = (object: KubeObject) => (object.spec ?? {}) as Record<string, unknown>;

function deployment(object: KubeObject, status: Record<string, unknown>): Readiness {
  // A condition from before the latest spec was observed is about the previous rollout.
  const pending = unobserved(object, status);
  if (pending) return pending;
  const progressing = conditionOf(status, "Progressing");
  if (progressing?.reason === "ProgressDeadlineExceeded") return failed(`rollout stuck: ${because(progressing)}`);
  const spec = specOf(object);
  if (spec.paused === true) return notReady("rollout paused");
  const want = typeof spec.replicas === "number" ? spec.replicas : 1;
  const updated = count(status.updatedReplicas);
  if (updated < want) return notReady(`${updated} of ${want} replicas updated`);
  const total = count(status.replicas);
  if (total > updated) return notReady(`${total - updated} old replicas pending termination`);
  const available = count(status.availableReplicas);
  if (available < updated) return notReady(`${available} of ${updated} updated replicas available`);
  const readyCount = count(status.readyReplicas);
  if (readyCount < want) return notReady(`${readyCount} of ${want} replicas ready`);
  return ready;
}

function statefulSet(object: KubeObject, status: Record<string, unknown>): Readiness {
  const pending = unobserved(object, status);
  if (pending) return pending;
  const spec = specOf(object);
  const want = typeof spec.replicas === "number" ? spec.replicas : 1;
  const readyCount = count(status.readyReplicas);
  if (readyCount < want) return notReady(`${readyCount} of ${want} replicas ready`);
  const strategy = (spec.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { partition?: number } };
  // With OnDelete, pods change only when someone deletes them: there is no rollout to wait for.
  if (strategy.type === "OnDelete") return ready;
  const partition = strategy.rollingUpdate?.partition ?? 0;
  if (partition > 0) {
    const updated = count(status.updatedReplicas);
    const target = want - partition;
    return updated < target ? notReady(`${updated} of ${target} replicas updated (partition ${partition})`) : ready;
  }
  if (status.updateRevision !== status.currentRevision) {
    return notReady(`${count(status.updatedReplicas)} of ${want} replicas at the new revision`);
  }
  const available = status.availableReplicas;
  if (typeof available === "number" && available < want) return notReady(`${available} of ${want} replicas available`);
  return ready;
}

function daemonSet(object: KubeObject, status: Record<string, unknown>): Readiness {
  const pending = unobserved(object, status);
  if (pending) return pending;
  const want = count(status.desiredNumberScheduled);
  const updated = count(status.updatedNumberScheduled);
  if (updated < want) return notReady(`${updated} of ${want} pods updated`);
  const available = count(status.numberAvailable);
  if (available < want) return notReady(`${available} of ${want} pods available`);
  const readyCount = count(status.numberReady);
  if (readyCount < want) return notReady(`${readyCount} of ${want} pods ready`);
  return ready;
}

function job(object: KubeObject, status: Record<string, unknown>): Readiness {
  const done = conditionOf(status, "Complete");
  if (done?.status === "True") return ready;
  const failure = conditionOf(status, "Failed");
  if (failure?.status === "True") return failed(`Job failed: ${because(failure)}`);
  if (specOf(object).suspend === true) return notReady("suspended");
  return notReady(`running: ${count(status.active)} active, ${count(status.succeeded)} succeeded`);
}
