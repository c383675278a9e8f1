import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ClusterAccessError,
  clusterFor,
  loadClusterRegistry,
  loadClusterRegistryText,
} from "../../../src/config/cluster-registry.ts";

const lines = (...text: string[]) => `${text.join("\n")}\n`;
const FILE = "/etc/undrift/clusters.yml";

const registry = loadClusterRegistryText(
  lines(
    "clusters:",
    "  prod-eu:",
    "    kubeconfig: /etc/undrift/prod-eu.kubeconfig",
    "    context: prod-eu",
    "    repositories: [acme/gitops, acme-platform/*]",
    "  local:",
    "    inCluster: true",
    "    repositories: [Acme/App]",
  ),
  FILE,
);

function accessError(cluster: string, repository: string): ClusterAccessError {
  try {
    clusterFor(registry, cluster, repository);
  } catch (error) {
    if (error instanceof ClusterAccessError) return error;
    throw error;
  }
  throw new Error("expected clusterFor to throw a ClusterAccessError");
}

describe("clusterFor", () => {
  it("gives a listed repository its cluster's credentials", () => {
    expect(clusterFor(registry, "prod-eu", "acme/gitops")).toEqual({
      kubeconfig: "/etc/undrift/prod-eu.kubeconfig",
      context: "prod-eu",
      repositories: ["acme/gitops", "acme-platform/*"],
    });
    expect(clusterFor(registry, "local", "acme/app").inCluster).toBe(true);
  });

  it("lets every repository of an owner/* entry in, whatever the case of the names", () => {
    expect(clusterFor(registry, "prod-eu", "acme-platform/infra").kubeconfig).toBe("/etc/undrift/prod-eu.kubeconfig");
    expect(clusterFor(registry, "prod-eu", "ACME-Platform/Infra").kubeconfig).toBe("/etc/undrift/prod-eu.kubeconfig");
    expect(clusterFor(registry, "prod-eu", "Acme/GitOps").context).toBe("prod-eu");
  });

  it("refuses a repository the cluster does not list", () => {
    const error = accessError("prod-eu", "acme/app");
    expect(error.message).toBe('repository acme/app may not use cluster "prod-eu"');
    expect(error).toMatchObject({ name: "ClusterAccessError", cluster: "prod-eu", repository: "acme/app" });
    expect(accessError("prod-eu", "acme-platformx/infra").message).toBe(
      'repository acme-platformx/infra may not use cluster "prod-eu"',
    );
  });

  it("refuses a cluster the registry does not have", () => {
    expect(accessError("prod-us", "acme/gitops").message).toBe('cluster "prod-us" is not in the cluster registry');
    expect(accessError("constructor", "acme/gitops").message).toBe(
      'cluster "constructor" is not in the cluster registry',
    );
  });
});

describe("loadClusterRegistryText: errors name the registry file, the line and the field", () => {
  const messageOf = (text: string) => {
    try {
      loadClusterRegistryText(text, FILE);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("expected an error");
  };

  it("needs exactly one of kubeconfig and inCluster", () => {
    const both = lines("clusters:", "  prod:", "    kubeconfig: /k", "    inCluster: true", "    repositories: [a/b]");
    expect(messageOf(both)).toBe(`${FILE}:3: clusters.prod: set kubeconfig or inCluster: true, not both`);
    const neither = lines("clusters:", "  prod:", "    context: prod", "    repositories: [a/b]");
    expect(messageOf(neither)).toBe(`${FILE}:3: clusters.prod: needs kubeconfig or inCluster: true`);
    const disabled = lines("clusters:", "  prod:", "    inCluster: false", "    repositories: [a/b]");
    expect(messageOf(disabled)).toBe(`${FILE}:3: clusters.prod: needs kubeconfig or inCluster: true`);
  });

  it("checks repository patterns and catches typos in keys", () => {
    const pattern = lines("clusters:", "  prod:", "    inCluster: true", "    repositories:", "      - acme");
    expect(messageOf(pattern)).toBe(
      `${FILE}:5: clusters.prod.repositories[0]: expected owner/name or owner/*, got "acme"`,
    );
    const typo = lines("clusters:", "  prod:", "    inCluster: true", "    repos: [a/b]");
    expect(messageOf(typo)).toBe(`${FILE}:4: clusters.prod.repos: unknown field; did you mean "repositories"?`);
  });

  it("needs a clusters map", () => {
    expect(messageOf("cluster: {}\n")).toBe(`${FILE}:1: cluster: unknown field; did you mean "clusters"?`);
  });
});

describe("loadClusterRegistry", () => {
  it("reads the file and resolves kubeconfig paths against its folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "undrift-clusters-"));
    try {
      const path = join(dir, "clusters.yml");
      await writeFile(
        path,
        lines("clusters:", "  prod:", "    kubeconfig: prod.kubeconfig", "    repositories: [a/*]"),
      );
      const loaded = await loadClusterRegistry(path);
      expect(loaded.clusters.prod?.kubeconfig).toBe(join(dir, "prod.kubeconfig"));
      await expect(loadClusterRegistry(join(dir, "missing.yml"))).rejects.toThrow(
        `${join(dir, "missing.yml")}: not found`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
