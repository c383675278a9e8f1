// The cluster registry the chart renders is one undrift's own loader reads
// (src/config/cluster-registry.ts), with each kubeconfig where the worker
// that serves its cluster mounts it.
import { describe, expect, it } from "vitest";
import { loadClusterRegistryText } from "../../../src/config/cluster-registry.ts";
import { type Obj, renderChart } from "./chart-tools.ts";

describe("charts/undrift: the cluster registry", () => {
  it("renders notification channels that read their URL and webhook key from a Secret every worker mounts", async () => {
    const objects = renderChart({
      clusters: { here: { inCluster: true, repositories: ["acme/*"] } },
      channels: {
        "platform.slack": { kind: "slack", secret: { name: "chans", urlKey: "slack-url" }, repositories: ["acme/*"] },
        "audit-hook": { kind: "webhook", secret: { name: "hook" }, repositories: ["acme/gitops"] },
      },
      workers: [{ name: "all" }],
    });
    const configMap = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === "r-undrift-clusters")!;
    const registry = loadClusterRegistryText(configMap.data["clusters.yaml"], "clusters.yaml");
    expect(registry.channels).toEqual({
      "platform.slack": {
        kind: "slack",
        url: { file: "/etc/undrift/channels/platform.slack/url" },
        repositories: ["acme/*"],
      },
      "audit-hook": {
        kind: "webhook",
        url: { file: "/etc/undrift/channels/audit-hook/url" },
        secret: { file: "/etc/undrift/channels/audit-hook/secret" },
        repositories: ["acme/gitops"],
      },
    });
    const pod = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "r-undrift-worker-all")!.spec
      .template.spec;
    const secretOf = (dir: string) => {
      const mount = pod.containers[0].volumeMounts.find((m: Obj) => m.mountPath === dir);
      expect(mount.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      return pod.volumes.find((v: Obj) => v.name === mount.name).secret;
    };
    expect(secretOf("/etc/undrift/channels/platform.slack")).toEqual({
      secretName: "chans",
      items: [{ key: "slack-url", path: "url" }],
    });
    expect(secretOf("/etc/undrift/channels/audit-hook")).toEqual({
      secretName: "hook",
      items: [
        { key: "url", path: "url" },
        { key: "signing-key", path: "secret" },
      ],
    });
  });

  it("is read by undrift's loader as the values say; kubeconfigs sit where their worker mounts them", async () => {
    const objects = renderChart({
      clusters: {
        "prod.eu_1": { kubeconfigSecret: { name: "eu", key: "config" }, context: "eu", repositories: ["acme/*"] },
        here: { inCluster: true, repositories: ["acme/gitops", "acme-platform/*"] },
      },
      workers: [{ name: "all" }],
    });
    const configMap = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === "r-undrift-clusters")!;
    const registry = loadClusterRegistryText(configMap.data["clusters.yaml"], "clusters.yaml");
    expect(registry).toEqual({
      clusters: {
        "prod.eu_1": {
          kubeconfig: "/etc/undrift/kubeconfigs/prod.eu_1/kubeconfig",
          context: "eu",
          repositories: ["acme/*"],
        },
        here: { inCluster: true, repositories: ["acme/gitops", "acme-platform/*"] },
      },
    });
    const pod = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "r-undrift-worker-all")!.spec
      .template.spec;
    // A worker with no clusters of its own serves all of the registry's, named, as `undrift worker --clusters` takes them.
    expect(pod.containers[0].args).toEqual(["worker", "--clusters", "here,prod.eu_1"]);
    const mount = pod.containers[0].volumeMounts.find((m: Obj) => m.mountPath === "/etc/undrift/kubeconfigs/prod.eu_1");
    const volume = pod.volumes.find((v: Obj) => v.name === mount.name);
    expect(volume.secret).toEqual({ secretName: "eu", items: [{ key: "config", path: "kubeconfig" }] });
    expect(mount.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(pod.automountServiceAccountToken).toBe(true);
  });
});
