// Readiness as kstatus computes it, for the kinds and conditions beyond the
// recorded workloads of check-health.test.ts: a table of objects in the shape
// their controllers write status, each with the readiness a user should read.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Readiness } from "../../../../src/model/health.ts";
import type { KubeObject } from "../../../../src/model/types.ts";
import { checkHealth } from "../../../../src/remediate/health/check-health.ts";

function recorded(name: string): KubeObject {
  return JSON.parse(
    readFileSync(new URL(`../../../fixtures/health/${name}.json`, import.meta.url), "utf8"),
  ) as KubeObject;
}

const object = (apiVersion: string, kind: string, rest: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion,
  kind,
  ...rest,
  metadata: { name: "x", namespace: "ns", ...rest.metadata },
});
const pvc = (status: Record<string, unknown>) => object("v1", "PersistentVolumeClaim", { spec: {}, status });
const service = (type: string | undefined, status: Record<string, unknown> = {}) =>
  object("v1", "Service", { spec: { clusterIP: "10.0.0.7", ...(type ? { type } : {}) }, status });
const custom = (status: Record<string, unknown>, generation = 2) =>
  object("cert-manager.io/v1", "Certificate", { metadata: { name: "x", generation }, spec: {}, status });
const condition = (type: string, status: string, reason?: string, message?: string) => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});
const healthy: Readiness = { status: "healthy" };
const pod = (status: Record<string, unknown>) => object("v1", "Pod", { spec: {}, status });

const table: Array<[string, KubeObject, Readiness]> = [
  ["a Bound PersistentVolumeClaim", pvc({ phase: "Bound" }), healthy],
  [
    "a Pending PersistentVolumeClaim",
    pvc({ phase: "Pending" }),
    { status: "not-ready", message: "not Bound (phase Pending)" },
  ],
  ["a claim with no status yet", pvc({}), { status: "not-ready", message: "not Bound (phase unknown)" }],
  [
    "a Lost claim",
    pvc({ phase: "Lost" }),
    { status: "failed", message: "Lost: its PersistentVolume no longer exists" },
  ],
  ["a ClusterIP Service", service(undefined), healthy],
  ["a NodePort Service", service("NodePort"), healthy],
  [
    "a LoadBalancer Service no load balancer answered",
    service("LoadBalancer", { loadBalancer: {} }),
    { status: "not-ready", message: "no load balancer address yet (status.loadBalancer.ingress is empty)" },
  ],
  [
    "a LoadBalancer Service with an empty ingress entry",
    service("LoadBalancer", { loadBalancer: { ingress: [{}] } }),
    { status: "not-ready", message: "no load balancer address yet (status.loadBalancer.ingress is empty)" },
  ],
  [
    "a LoadBalancer Service with an IP",
    service("LoadBalancer", { loadBalancer: { ingress: [{ ip: "203.0.113.9" }] } }),
    healthy,
  ],
  [
    "a LoadBalancer Service with a hostname",
    service("LoadBalancer", { loadBalancer: { ingress: [{ hostname: "lb.example.com" }] } }),
    healthy,
  ],
  ["a running Pod that is Ready", pod({ phase: "Running", conditions: [condition("Ready", "True")] }), healthy],
  [
    "a running Pod that is not Ready",
    pod({ phase: "Running", conditions: [condition("Ready", "False", "ContainersNotReady")] }),
    { status: "not-ready", message: "Ready is False: ContainersNotReady" },
  ],
  ["a Pending Pod", pod({ phase: "Pending" }), { status: "not-ready", message: "phase Pending" }],
  [
    "a Pod that ran to completion",
    pod({ phase: "Succeeded", conditions: [condition("Ready", "False", "PodCompleted")] }),
    healthy,
  ],
  ["a Pod that failed", pod({ phase: "Failed", reason: "Evicted" }), { status: "failed", message: "Failed: Evicted" }],
  [
    "a custom resource with Ready=True",
    custom({ observedGeneration: 2, conditions: [condition("Ready", "True")] }),
    healthy,
  ],
  [
    "a custom resource with Ready=False",
    custom({ conditions: [condition("Ready", "False", "Issuing", "Issuing certificate as Secret does not exist")] }),
    { status: "not-ready", message: "Ready is False: Issuing: Issuing certificate as Secret does not exist" },
  ],
  [
    "a custom resource with Ready=Unknown",
    custom({ conditions: [condition("Ready", "Unknown")] }),
    { status: "not-ready", message: "Ready is Unknown" },
  ],
  ["a custom resource with no conditions", custom({}), healthy],
  [
    "a custom resource whose controller has not seen the latest spec, whatever Ready says",
    custom({ observedGeneration: 1, conditions: [condition("Ready", "True")] }),
    { status: "not-ready", message: "the controller has not observed generation 2 yet (observed 1)" },
  ],
  [
    "a custom resource that is Reconciling",
    custom({
      conditions: [condition("Reconciling", "True", "Progressing", "fetching revision"), condition("Ready", "True")],
    }),
    { status: "not-ready", message: "reconciling: Progressing: fetching revision" },
  ],
  [
    "a custom resource that is Stalled",
    custom({
      conditions: [condition("Stalled", "True", "InvalidSpec", "spec.url is not a URL"), condition("Ready", "False")],
    }),
    { status: "failed", message: "stalled: InvalidSpec: spec.url is not a URL" },
  ],
  [
    "a custom resource whose Reconciling and Stalled are False",
    custom({
      conditions: [condition("Reconciling", "False"), condition("Stalled", "False"), condition("Ready", "True")],
    }),
    healthy,
  ],
];

describe("readiness by kind and condition, as kstatus reads them", () => {
  it.each(table)("%s", (_, input, expected) => {
    expect(checkHealth(input)).toEqual(expected);
  });

  it("reads a Ready condition only for kinds without a rule of their own", () => {
    // A Deployment's readiness comes from its rollout; a Ready condition someone wrote there changes nothing.
    const deployment = recorded("deployment-rolled-out");
    const status = deployment.status as { conditions: unknown[] };
    status.conditions.push(condition("Ready", "False", "Whatever"));
    expect(checkHealth(deployment)).toEqual(healthy);
  });
});

describe("a Deployment's conditions, after its counts", () => {
  const withConditions = (conditions: unknown[]) => {
    const deployment = recorded("deployment-rolled-out");
    (deployment.status as { conditions: unknown[] }).conditions = conditions;
    return deployment;
  };

  it("is not ready while Progressing has not reached NewReplicaSetAvailable", () => {
    const deployment = withConditions([
      condition("Available", "True", "MinimumReplicasAvailable"),
      condition("Progressing", "True", "ReplicaSetUpdated", 'ReplicaSet "web-7b9f8c6d5" is progressing.'),
    ]);
    expect(checkHealth(deployment)).toEqual({
      status: "not-ready",
      message:
        'the new ReplicaSet is not available yet (ReplicaSetUpdated: ReplicaSet "web-7b9f8c6d5" is progressing.)',
    });
  });

  it("needs no Progressing condition when progressDeadlineSeconds is at its maximum, as the controller then writes none", () => {
    const deployment = withConditions([condition("Available", "True", "MinimumReplicasAvailable")]);
    expect(checkHealth(deployment).status).toBe("not-ready");
    (deployment.spec as { progressDeadlineSeconds: number }).progressDeadlineSeconds = 2147483647;
    expect(checkHealth(deployment)).toEqual(healthy);
  });

  it("is not ready while not Available", () => {
    const deployment = withConditions([
      condition("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability."),
      condition("Progressing", "True", "NewReplicaSetAvailable"),
    ]);
    expect(checkHealth(deployment)).toEqual({
      status: "not-ready",
      message: "not Available: MinimumReplicasUnavailable: Deployment does not have minimum availability.",
    });
  });
});

describe("counts kstatus checks that the per-kind rules also read", () => {
  it("a StatefulSet with more replicas than it wants is still terminating some", () => {
    const set = recorded("statefulset-rolled-out");
    const status = set.status as { replicas: number };
    status.replicas += 1;
    expect(checkHealth(set)).toEqual({ status: "not-ready", message: "1 replicas pending termination" });
  });

  it("a DaemonSet whose controller has not counted its nodes yet, or has not scheduled every pod", () => {
    const set = recorded("daemonset-rolled-out");
    const status = set.status as Record<string, number>;
    const scheduled = { ...status, currentNumberScheduled: status.desiredNumberScheduled! - 1 };
    expect(checkHealth({ ...set, status: scheduled }).message).toMatch(/^\d+ of \d+ pods scheduled$/);
    const { desiredNumberScheduled: _, ...uncounted } = status;
    expect(checkHealth({ ...set, status: uncounted })).toEqual({ status: "not-ready", message: "no pods counted yet" });
  });
});
