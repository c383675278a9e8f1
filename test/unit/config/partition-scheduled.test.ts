// What the app schedules for a config: each target, and each `discover:` entry's tick (its worker reads the
// cluster's reconcilers, which the web process cannot); the registry refuses a tick as it refuses a target.
import { describe, expect, it } from "vitest";
import { loadClusterRegistryText } from "../../../src/config/cluster-registry.ts";
import { discoveryCluster, discoveryTarget } from "../../../src/config/discovery-target.ts";
import { partitionScheduled } from "../../../src/config/partition-targets.ts";
import { repoConfigSchema } from "../../../src/config/schema.ts";
import { scheduledScanJobSchema } from "../../../src/queue/jobs.ts";

const registry = loadClusterRegistryText(
  [
    "clusters:",
    "  prod:",
    "    kubeconfig: /etc/undrift/prod.kubeconfig",
    "    repositories: [acme/gitops]",
    "  staging:",
    "    kubeconfig: /etc/undrift/staging.kubeconfig",
    "    repositories: [acme/other]",
    "",
  ].join("\n"),
  "/etc/undrift/clusters.yml",
);

describe("the schedulers of a config", () => {
  it("schedules a tick per discover: entry beside the targets, and refuses one whose cluster the registry refuses", () => {
    const config = repoConfigSchema.parse({
      targets: [{ name: "infra", cluster: "prod", path: "infra" }],
      discover: [
        { cluster: "prod", flux: true },
        { cluster: "staging", flux: true },
      ],
    });
    const parts = partitionScheduled({ registry, repo: "acme/gitops", config });
    expect(parts.allowed.map((a) => [a.name, a.cluster])).toEqual([
      ["infra", "prod"],
      ["discover@prod", "prod"],
    ]);
    expect(parts.refused.map((r) => [r.target.name, r.error.message])).toEqual([
      ["discover@staging", expect.stringContaining("staging")],
    ]);
  });

  it("names a tick so that no target can take its name, and queues it as a job", () => {
    expect(discoveryTarget("prod-eu")).toBe("discover@prod-eu");
    expect(discoveryCluster(discoveryTarget("prod-eu"))).toBe("prod-eu");
    expect(discoveryCluster("discover-prod")).toBeUndefined();
    // A target's name is a DNS label: "discover@prod" is none, so a configured target cannot collide with it.
    expect(
      repoConfigSchema.safeParse({ targets: [{ name: "discover@prod", cluster: "prod", path: "x" }] }).success,
    ).toBe(false);
    const job = { installationId: 1, repo: "acme/gitops", cluster: "prod" };
    expect(scheduledScanJobSchema.safeParse({ ...job, target: discoveryTarget("prod") }).success).toBe(true);
    expect(scheduledScanJobSchema.safeParse({ ...job, target: "Not A Target" }).success).toBe(false);
  });
});
