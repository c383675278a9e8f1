import { describe, expect, it } from "vitest";
import { targetKey } from "../../../src/model/target-key.ts";
import {
  dashboardJobSchema,
  IGNORE_JOB,
  InvalidJobError,
  ignoreJobSchema,
  parseJob,
  SCHEDULE_QUEUE,
  scanJobSchema,
  scanQueueName,
  scheduledScanJobSchema,
} from "../../../src/queue/jobs.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const job = { installationId: 42, repo: "acme/gitops", target: "infra", cluster: "prod-eu", reason: "push" };

function invalid(data: unknown): InvalidJobError {
  try {
    parseJob(scanJobSchema, data, "scan of acme/gitops target infra");
  } catch (error) {
    if (error instanceof InvalidJobError) return error;
    throw error;
  }
  throw new Error("expected an InvalidJobError");
}

describe("queue names", () => {
  it("give each cluster its own scan queue, beside the one schedule queue", () => {
    expect(scanQueueName("prod-eu")).toBe("undrift-scan.prod-eu");
    expect(scanQueueName("prod-eu")).not.toBe(SCHEDULE_QUEUE);
  });

  it("escape a cluster name BullMQ would refuse (it forbids ':')", () => {
    expect(scanQueueName("arn:aws:eks:eu-west-1:1:cluster/prod")).not.toContain(":");
    expect(scanQueueName("a:b")).not.toBe(scanQueueName("a_b"));
  });
});

describe("scan job payloads", () => {
  it("accept a scan with or without the commit that prompted it", () => {
    expect(parseJob(scanJobSchema, { ...job, revision: SHA }, "scan")).toEqual({ ...job, revision: SHA });
    expect(parseJob(scanJobSchema, job, "scan")).toEqual(job);
  });

  it("refuse any field not in the schema, so no credential can ride along in Redis", () => {
    const error = invalid({ ...job, token: "ghs_secret" });
    expect(error.message).toContain("scan of acme/gitops target infra: invalid payload");
    expect(error.message).toContain("token");
    expect(error.message).not.toContain("ghs_secret");
  });

  it("refuse a repository that is not owner/name, a target name config would refuse, and a short SHA", () => {
    expect(invalid({ ...job, repo: "gitops" }).message).toContain("repo: expected owner/name");
    expect(invalid({ ...job, target: "Infra" }).message).toContain("target:");
    expect(invalid({ ...job, revision: "0123abc" }).message).toContain("revision: expected a full commit SHA");
    expect(invalid({ ...job, reason: "cron" }).message).toContain("reason:");
  });

  it("give scheduler ticks no reason or revision: the tick enqueues the scan with reason schedule", () => {
    const { reason: _reason, ...tick } = job;
    expect(parseJob(scheduledScanJobSchema, tick, "tick")).toEqual(tick);
    expect(() => parseJob(scheduledScanJobSchema, job, "tick")).toThrow(InvalidJobError);
  });
});

describe("targetKey", () => {
  it("names a target the same however GitHub spells the repository", () => {
    expect(targetKey("Acme/GitOps", "infra")).toBe("acme/gitops#infra");
    expect(targetKey("acme/gitops", "infra")).toBe(targetKey("ACME/GITOPS", "infra"));
  });
});

describe("the ignore job", () => {
  const ignore = {
    installationId: 42,
    repo: "acme/gitops",
    target: "infra",
    cluster: "prod-eu",
    items: [{ apiVersion: "apps/v1", kind: "Deployment", namespace: "shop", name: "web", path: "/spec/replicas" }],
    requestedBy: "alice",
  };

  it("is named as the dashboard enqueues it, and takes ticked fields and whole objects, and who asked", () => {
    expect(IGNORE_JOB).toBe("ignore");
    const whole = { ...ignore, items: [{ apiVersion: "v1", kind: "ConfigMap", name: "settings" }] };
    expect(parseJob(ignoreJobSchema, ignore, "ignore")).toEqual(ignore);
    expect(parseJob(ignoreJobSchema, whole, "ignore")).toEqual(whole);
  });

  it.each([
    [{ ...ignore, items: [] }, /items/],
    [{ ...ignore, items: [{ ...ignore.items[0], path: "spec.replicas" }] }, /items\.0\.path: expected a JSON pointer/],
    [{ ...ignore, kubeconfig: "x" }, /kubeconfig/],
    [{ ...ignore, requestedBy: "" }, /requestedBy/],
  ])("refuses %j", (data, message) => {
    expect(() => parseJob(ignoreJobSchema, data, "ignore")).toThrow(message);
  });
});

describe("the dashboard job", () => {
  const base = { installationId: 42, repo: "acme/gitops", target: "infra", cluster: "prod-eu", requestedBy: "bob" };

  it("names the ticked boxes by id and action only", () => {
    const dashboard = { ...base, issue: 3, boxes: [{ id: "3f2a9c01d4e5b6a7", action: "codify" }] };
    expect(parseJob(dashboardJobSchema, dashboard, "dashboard")).toEqual(dashboard);
    expect(() => parseJob(dashboardJobSchema, { ...dashboard, boxes: [] }, "dashboard")).toThrow(InvalidJobError);
    expect(() =>
      parseJob(dashboardJobSchema, { ...dashboard, boxes: [{ id: "3f2a9c01", action: "delete" }] }, "dashboard"),
    ).toThrow(InvalidJobError);
  });
});
