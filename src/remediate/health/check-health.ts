// Readiness of one object as it stands, as kstatus (sigs.k8s.io/cli-utils, what
// Flux waits with) computes it, and `kubectl rollout status`: first what every
// kind shares (being deleted, a status.observedGeneration behind
// metadata.generation, kstatus' Reconciling and Stalled conditions), then a rule
// per built-in kind (a workload is ready once its controller has seen the latest
// spec and the replica counts and conditions say the rollout is done), then, for
// any other kind, its Ready condition, which most operators set. A kind with none
// of these is ready once it exists.

import type { Readiness } from "../../model/health.ts";
import { kindKeyOf } from "../../model/object-key.ts";
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
  "/PersistentVolumeClaim": persistentVolumeClaim,
  "/Service": service,
  "/Pod": pod,
};

/** The readiness of an object by the rule of its kind. */
export function checkHealth(object: KubeObject): Readiness {
  if (object.metadata.deletionTimestamp) return notReady("being deleted");
  const status = (object.status ?? {}) as Record<string, unknown>;
  const generic = genericHealth(object, status);
  if (generic) return generic;
  const rule = rules[kindKeyOf(object)];
  return rule ? rule(object, status) : readyCondition(status);
}

/** kstatus' checks for every kind: a newer spec the controller has not seen, then its Reconciling and Stalled conditions. */
function genericHealth(object: KubeObject, status: Record<string, unknown>): Readiness | undefined {
  // Only a status that carries observedGeneration says which spec it is about.
  if (typeof status.observedGeneration === "number" && typeof object.metadata.generation === "number") {
    const pending = unobserved(object, status);
    if (pending) return pending;
  }
  const reconciling = conditionOf(status, "Reconciling");
  if (reconciling?.status === "True") return notReady(`reconciling: ${because(reconciling) || "no reason given"}`);
  const stalled = conditionOf(status, "Stalled");
  if (stalled?.status === "True") return failed(`stalled: ${because(stalled) || "no reason given"}`);
  return undefined;
}

/** A kind without a rule: its Ready condition when it has one (True is healthy), else ready once it exists. */
function readyCondition(status: Record<string, unknown>): Readiness {
  const condition = conditionOf(status, "Ready");
  if (!condition || condition.status === "True") return ready;
  return notReady(`Ready is ${condition.status ?? "unset"}${because(condition) ? `: ${because(condition)}` : ""}`);
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
  // The counts can be right a moment before the controller says the rollout is done, as kstatus reads it;
  // with progressDeadlineSeconds at its maximum the controller writes no Progressing condition at all.
  const tracksProgress = spec.progressDeadlineSeconds !== 2147483647;
  if (tracksProgress && (progressing?.status !== "True" || progressing.reason !== "NewReplicaSetAvailable")) {
    return notReady(`the new ReplicaSet is not available yet${progressing ? ` (${because(progressing)})` : ""}`);
  }
  const availableCondition = conditionOf(status, "Available");
  if (availableCondition?.status !== "True") {
    return notReady(`not Available${availableCondition ? `: ${because(availableCondition)}` : ""}`);
  }
  return ready;
}

function statefulSet(object: KubeObject, status: Record<string, unknown>): Readiness {
  const pending = unobserved(object, status);
  if (pending) return pending;
  const spec = specOf(object);
  const want = typeof spec.replicas === "number" ? spec.replicas : 1;
  const readyCount = count(status.readyReplicas);
  if (readyCount < want) return notReady(`${readyCount} of ${want} replicas ready`);
  const extra = count(status.replicas) - want;
  if (extra > 0) return notReady(`${extra} replicas pending termination`);
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
  if (typeof status.desiredNumberScheduled !== "number") return notReady("no pods counted yet");
  const want = status.desiredNumberScheduled;
  const current = count(status.currentNumberScheduled);
  if (current < want) return notReady(`${current} of ${want} pods scheduled`);
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
  // Suspended is what Git asked for, so the Job is where it should be (kstatus reads it so); until the
  // controller says so, it may still be starting pods.
  if (conditionOf(status, "Suspended")?.status === "True") return ready;
  if (specOf(object).suspend === true) return notReady("suspending");
  return notReady(`running: ${count(status.active)} active, ${count(status.succeeded)} succeeded`);
}

function persistentVolumeClaim(_: KubeObject, status: Record<string, unknown>): Readiness {
  if (status.phase === "Bound") return ready;
  // A claim whose volume is gone stays Lost until someone acts.
  if (status.phase === "Lost") return failed("Lost: its PersistentVolume no longer exists");
  return notReady(`not Bound (phase ${typeof status.phase === "string" ? status.phase : "unknown"})`);
}

/**
 * A LoadBalancer Service is ready once a load balancer has an address for it (status.loadBalancer.ingress),
 * as Argo CD and Helm's --wait judge it; kstatus checks only the clusterIP, which a Service has at once.
 */
function service(object: KubeObject, status: Record<string, unknown>): Readiness {
  if (specOf(object).type !== "LoadBalancer") return ready;
  const ingress = (status.loadBalancer as { ingress?: Array<{ ip?: string; hostname?: string }> } | undefined)?.ingress;
  if (ingress?.some((entry) => entry.ip || entry.hostname)) return ready;
  return notReady("no load balancer address yet (status.loadBalancer.ingress is empty)");
}

/** A Pod that ran to completion is done, as kstatus reads it; a running one is ready by its Ready condition. */
function pod(_: KubeObject, status: Record<string, unknown>): Readiness {
  if (status.phase === "Succeeded") return ready;
  if (status.phase === "Failed")
    return failed(`Failed${typeof status.reason === "string" ? `: ${status.reason}` : ""}`);
  if (status.phase !== "Running")
    return notReady(`phase ${typeof status.phase === "string" ? status.phase : "unknown"}`);
  return readyCondition(status);
}
