// Readiness rules per kind, on recorded objects: CRDs recorded from the test
// cluster; workloads in the shape kube-controller-manager writes their status
// (the test cluster runs no controllers, so nothing there ever rolls out).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../src/model/types.ts";
import { checkHealth } from "../../../../src/remediate/health/check-health.ts";

function recorded(name: string): KubeObject {
  return JSON.parse(
    readFileSync(new URL(`../../../fixtures/health/${name}.json`, import.meta.url), "utf8"),
  ) as KubeObject;
}

describe("health of a Deployment", () => {
  it("is healthy once every replica is updated, available and ready at the observed generation", () => {
    expect(checkHealth(recorded("deployment-rolled-out"))).toEqual({ status: "healthy" });
  });

  it("is not ready while replicas are being updated", () => {
    expect(checkHealth(recorded("deployment-rolling"))).toEqual({
      status: "not-ready",
      message: "1 of 3 replicas updated",
    });
  });

  it("is not ready while old replicas are still terminating", () => {
    expect(checkHealth(recorded("deployment-old-replicas"))).toEqual({
      status: "not-ready",
      message: "1 old replicas pending termination",
    });
  });

  it("is not ready until the controller has observed the latest spec, whatever the counts say", () => {
    expect(checkHealth(recorded("deployment-unobserved"))).toEqual({
      status: "not-ready",
      message: "the controller has not observed generation 3 yet (observed 2)",
    });
    expect(checkHealth(recorded("deployment-just-created")).status).toBe("not-ready");
  });

  it("has failed when its progress deadline passed", () => {
    const health = checkHealth(recorded("deployment-deadline-exceeded"));
    expect(health.status).toBe("failed");
    expect(health.message).toMatch(
      /^rollout stuck: ProgressDeadlineExceeded: ReplicaSet "web-7b9f8c6d5" has timed out/,
    );
  });

  it("counts a missing replicas field as one replica, as the API server defaults it", () => {
    const deployment = recorded("deployment-rolled-out");
    delete (deployment.spec as { replicas?: number }).replicas;
    expect(checkHealth(deployment)).toEqual({ status: "healthy" });
  });

  it("is not ready while being deleted", () => {
    const deployment = recorded("deployment-rolled-out");
    deployment.metadata.deletionTimestamp = "2026-11-30T10:00:00Z";
    expect(checkHealth(deployment)).toEqual({ status: "not-ready", message: "being deleted" });
  });
});

describe("health of a StatefulSet", () => {
  it("is healthy when every replica is ready at the update revision", () => {
    expect(checkHealth(recorded("statefulset-rolled-out"))).toEqual({ status: "healthy" });
  });

  it("is not ready while replicas move to the new revision", () => {
    expect(checkHealth(recorded("statefulset-updating"))).toEqual({
      status: "not-ready",
      message: "1 of 3 replicas at the new revision",
    });
  });

  it("is healthy once the replicas above a partition are updated", () => {
    expect(checkHealth(recorded("statefulset-partitioned"))).toEqual({ status: "healthy" });
  });
});

describe("health of a DaemonSet", () => {
  it("is healthy when every scheduled pod is updated and available", () => {
    expect(checkHealth(recorded("daemonset-rolled-out"))).toEqual({ status: "healthy" });
  });

  it("is not ready while pods are updated", () => {
    expect(checkHealth(recorded("daemonset-updating"))).toEqual({
      status: "not-ready",
      message: "1 of 3 pods updated",
    });
  });
});

describe("health of a Job", () => {
  it("is healthy when complete", () => {
    expect(checkHealth(recorded("job-complete"))).toEqual({ status: "healthy" });
  });

  it("has failed when the Job failed, with the reason", () => {
    expect(checkHealth(recorded("job-failed"))).toEqual({
      status: "failed",
      message: "Job failed: BackoffLimitExceeded: Job has reached the specified backoff limit",
    });
  });

  it("is not ready while running, nor while a suspend is not yet in effect", () => {
    expect(checkHealth(recorded("job-running"))).toEqual({
      status: "not-ready",
      message: "running: 1 active, 0 succeeded",
    });
    const suspending = recorded("job-suspended");
    suspending.status = {};
    expect(checkHealth(suspending)).toEqual({ status: "not-ready", message: "suspending" });
  });

  it("is healthy once suspended, as Git asked, as kstatus reads it", () => {
    expect(checkHealth(recorded("job-suspended"))).toEqual({ status: "healthy" });
  });
});

describe("health of a CustomResourceDefinition", () => {
  it("is healthy once Established", () => {
    expect(checkHealth(recorded("crd-established"))).toEqual({ status: "healthy" });
  });

  it("is not ready as the create returns it, before the API server establishes it", () => {
    expect(checkHealth(recorded("crd-just-created"))).toEqual({ status: "not-ready", message: "not Established yet" });
  });

  it("has failed when its names conflict with another CRD's", () => {
    expect(checkHealth(recorded("crd-names-conflict"))).toEqual({
      status: "failed",
      message: 'names not accepted: ListKindConflict: "WidgetList" is already in use',
    });
  });
});

describe("health of other kinds", () => {
  it("is healthy once the object exists", () => {
    const configMap: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" } };
    expect(checkHealth(configMap)).toEqual({ status: "healthy" });
  });

  it("is not ready for a Namespace that is terminating", () => {
    const namespace = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "old" },
      status: { phase: "Terminating" },
    };
    expect(checkHealth(namespace)).toEqual({ status: "not-ready", message: "Terminating" });
    expect(checkHealth({ ...namespace, status: { phase: "Active" } })).toEqual({ status: "healthy" });
  });
});
